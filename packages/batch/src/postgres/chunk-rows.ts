import { withoutOrder } from '../journal/batch-journal.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';

/** A chunk's order as the ledger stores it (in its chunk's JSON text). */
export interface ChunkEntry {
  readonly index: number;
  readonly order: Record<string, unknown>;
  readonly resends?: number;
  readonly interrupted?: number;
}

/** A leased chunk's row: its orders' text, the indexes never to send (lost their claim), its token and history. */
export interface LeasedRow {
  readonly chunk: string;
  readonly body: string;
  readonly skip: string[] | null;
  readonly fence: string;
  readonly sent: boolean;
  readonly taken_over: boolean;
  /** How long to wait before an earlier holder's send can no longer be in flight (ms). */
  readonly quiet_wait_ms: number;
  /** When it may be sent, in the database's epoch ms: its slot of the batch's rate, or a pause's end (null: at once). */
  readonly send_at_ms: number | null;
  /** The wait is a slot of the batch's rate (not only a pause's end): the send must be written close to it. */
  readonly rate_slot: boolean;
}

/** The entry stored for a pending order (resends and interruptions only when there were some). */
export function entryOf(p: PendingOrder): ChunkEntry {
  const entry: { index: number; order: Record<string, unknown>; resends?: number; interrupted?: number } = { index: p.index, order: p.order };
  if (p.resends > 0) entry.resends = p.resends;
  if (p.interrupted) entry.interrupted = p.interrupted;
  return entry;
}

/** The pending order of a stored entry. */
export function pendingOf(entry: ChunkEntry): PendingOrder {
  return { index: Number(entry.index), order: entry.order, resends: entry.resends ?? 0, ...(entry.interrupted ? { interrupted: entry.interrupted } : {}) };
}

/** A leased row's orders parsed, those that lost their claim left out. */
export function ordersOf(row: LeasedRow): PendingOrder[] {
  const skip = row.skip && row.skip.length > 0 ? new Set(row.skip.map(Number)) : null;
  const entries = JSON.parse(row.body) as ChunkEntry[];
  return (skip ? entries.filter((e) => !skip.has(Number(e.index))) : entries).map(pendingOf);
}

/** A commit's columns: first index and counts by kind, the outcomes' JSON text (null when none), the resends' (null when none). */
export interface CommitColumns {
  readonly first: number;
  readonly counts: readonly [number, number, number, number];
  readonly outcomes: string | null;
  readonly resend: string | null;
}

/** The place of each outcome kind in a result row's counts (the columns succeeded, failed, rejected, unknown). */
const KIND_COLUMN = { succeeded: 0, failed: 1, rejected: 2, unknown: 3 } as const;

/** A chunk result row's outcomes, each with its order put back from the chunk's orders (as the runner made it: index, kind, order, the rest). */
export function outcomesOf(outcomes: string, body: string): OrderOutcome[] {
  const orders = new Map((JSON.parse(body) as ChunkEntry[]).map((e) => [Number(e.index), e.order]));
  return (JSON.parse(outcomes) as OrderOutcome[]).map(({ index, kind, order, ...rest }) => ({ index, kind, order: (order ?? orders.get(index))!, ...rest }));
}

/** What a chunk's commit writes: its outcomes as one text with their counts, and its orders to send again as another. */
export function commitColumns(outcomes: readonly OrderOutcome[], resend: readonly PendingOrder[]): CommitColumns {
  let first = Number.POSITIVE_INFINITY;
  const counts: [number, number, number, number] = [0, 0, 0, 0];
  for (const o of outcomes) {
    if (o.index < first) first = o.index;
    counts[KIND_COLUMN[o.kind]] += 1;
  }
  return {
    first: outcomes.length > 0 ? first : 0,
    counts,
    outcomes: outcomes.length > 0 ? JSON.stringify(outcomes.map(withoutOrder)) : null,
    resend: resend.length > 0 ? JSON.stringify(resend.map(entryOf)) : null,
  };
}
