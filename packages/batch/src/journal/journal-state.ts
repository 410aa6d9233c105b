import { stat } from 'node:fs/promises';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { withJournaledOrder, type JournalEntry } from './batch-journal.ts';
import { readJournalEntries, type JournalExtent } from './journal-reader.ts';
import { JournalMismatchError } from '../errors.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { InputRange } from '../intake/input-digest.ts';

/** What a journal says of its batch: the outcomes decided, the chunks in doubt, the orders to send again. */
export interface JournalState {
  operation: BatchOperation;
  decided: Map<number, OrderOutcome>;
  journaled: Map<number, Record<string, unknown>>;
  inDoubt: Map<number, PendingOrder[]>;
  /** Chunks whose `sent` line proves their call was made (their in-doubt orders count it against maxResends). */
  sent: Set<number>;
  resend: PendingOrder[];
  lastChunk: number;
  /** Bytes up to the last complete line: a torn tail after them is cut before anything is appended. */
  completeBytes: number;
  /** The input as the batch read it: its ranges, its total once all read, the total it was started with. */
  input: { ranges: InputRange[]; total: number | null; declared: number | null };
}

/** Takes an `input` line into what the journal says of its batch's input. */
function readInput(input: JournalState['input'], entry: Extract<JournalEntry, { type: 'input' }>): void {
  // Ranges follow one another from 0; one that does not (a journal edited by hand) ends what can be checked.
  if (entry.range && entry.range.from === (input.ranges.at(-1)?.upto ?? 0)) input.ranges.push(entry.range);
  if (entry.declared !== undefined) input.declared = entry.declared;
  if (entry.sealed) input.total = entry.sealed.total;
}

/** Reads a journal back (a resume starts from it). */
export async function readJournal(path: string): Promise<JournalState> {
  let operation: BatchOperation | null = null;
  const decided = new Map<number, OrderOutcome>();
  const journaled = new Map<number, Record<string, unknown>>();
  const lastIntent = new Map<number, number>();
  // How many times each order had been sent again when its last intent was written (resends count against maxResends).
  const resendsAtIntent = new Map<number, number>();
  const interruptedAtIntent = new Map<number, number>();
  const sent = new Set<number>();
  const settled = new Set<number>();
  const resendAt = new Map<number, number>();
  const unsentAt = new Map<number, number>();
  const notCountedAt = new Map<number, number>();
  let lastChunk = 0;
  const input: JournalState['input'] = { ranges: [], total: null, declared: null };
  const extent: JournalExtent = { completeBytes: 0 };
  for await (const entry of readJournalEntries(path, extent)) {
    switch (entry.type) {
      case 'start':
        operation = entry.operation;
        break;
      case 'intent':
        lastChunk = Math.max(lastChunk, entry.chunk);
        for (const { index, order, resends, interrupted } of entry.orders) {
          lastIntent.set(index, entry.chunk);
          if (resends) resendsAtIntent.set(index, resends);
          if (interrupted) interruptedAtIntent.set(index, interrupted);
          journaled.set(index, order);
        }
        break;
      case 'outcomes':
        if (entry.chunk !== null) settled.add(entry.chunk);
        for (const journaledOutcome of entry.outcomes) {
          // `journaled` already holds the order of every index an intent sent.
          const outcome = withJournaledOrder(journaledOutcome, journaled);
          decided.set(outcome.index, outcome);
          journaled.set(outcome.index, outcome.order as Record<string, unknown>);
        }
        for (const index of entry.resend ?? []) resendAt.set(index, entry.chunk ?? 0);
        for (const index of entry.notCounted ?? []) notCountedAt.set(index, entry.chunk ?? 0);
        for (const index of entry.unsent ?? []) unsentAt.set(index, entry.chunk ?? 0);
        break;
      case 'sent':
        sent.add(entry.chunk);
        break;
      case 'end':
        break;
      case 'input':
        readInput(input, entry);
        break;
    }
  }
  if (!operation) {
    // A start line is on disk before anything is sent: a journal whose only line is torn belongs to a batch that sent nothing.
    const torn = extent.completeBytes === 0 && (await stat(path)).size > 0;
    throw new JournalMismatchError(
      path,
      null,
      torn
        ? 'its only line is torn: the batch stopped before it sent anything, so delete this journal and run the batch again without resuming it'
        : 'no start entry: this is not a batch journal',
    );
  }
  const { inDoubt, resend } = openOrders({ lastIntent, decided, journaled, resendsAtIntent, interruptedAtIntent, settled, resendAt, notCountedAt, unsentAt });
  return { operation, decided, journaled, inDoubt, sent, resend, lastChunk, completeBytes: extent.completeBytes, input };
}

/** What a journal says of each order it sent: the last intent of each, and what the chunks' outcomes said after it. */
interface SentOrders {
  readonly lastIntent: ReadonlyMap<number, number>;
  readonly decided: ReadonlyMap<number, OrderOutcome>;
  readonly journaled: ReadonlyMap<number, Record<string, unknown>>;
  readonly resendsAtIntent: ReadonlyMap<number, number>;
  readonly interruptedAtIntent: ReadonlyMap<number, number>;
  readonly settled: ReadonlySet<number>;
  readonly resendAt: ReadonlyMap<number, number>;
  readonly notCountedAt: ReadonlyMap<number, number>;
  readonly unsentAt: ReadonlyMap<number, number>;
}

/** The orders a resume still has to settle: in doubt (by chunk: a query decides) or to send again. */
function openOrders(read: SentOrders): { inDoubt: Map<number, PendingOrder[]>; resend: PendingOrder[] } {
  const { lastIntent, decided, journaled, resendsAtIntent, interruptedAtIntent, settled, resendAt, notCountedAt, unsentAt } = read;
  const inDoubt = new Map<number, PendingOrder[]>();
  const resend: PendingOrder[] = [];
  for (const [index, chunk] of lastIntent) {
    if (decided.has(index)) continue;
    const order = journaled.get(index)!;
    const resends = resendsAtIntent.get(index) ?? 0;
    const interrupted = interruptedAtIntent.get(index);
    const counts = interrupted ? { resends, interrupted } : { resends };
    if (!settled.has(chunk)) {
      // The request may or may not have gone out before the crash: a query decides, not a resend.
      inDoubt.set(chunk, [...(inDoubt.get(chunk) ?? []), { index, order, ...counts }]);
    } else if ((resendAt.get(index) ?? -1) >= chunk) {
      // A query already showed it not applied, and the crash came before it was sent again: the send the query
      // settled counts, unless nothing proved it had left.
      const counted = notCountedAt.get(index) !== resendAt.get(index);
      resend.push(counted ? { index, order, ...counts, resends: resends + 1 } : { index, order, resends, interrupted: (interrupted ?? 0) + 1 });
    } else if ((unsentAt.get(index) ?? -1) >= chunk) {
      // Its intent was written ahead and the batch stopped before sending it: it goes out as it would have.
      resend.push({ index, order, ...counts });
    }
  }
  return { inDoubt, resend };
}
