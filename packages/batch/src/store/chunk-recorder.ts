import { withoutOrder, type JournalEntry } from '../batch-journal.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { LedgerStore } from './ledger-store.ts';

const now = (): string => new Date().toISOString();

/** An order as its chunk's intent holds it: `resends` and `interrupted` only when not 0 (no object spread per order). */
function journaledOrder({ index, order, resends, interrupted }: PendingOrder): Extract<JournalEntry, { type: 'intent' }>['orders'][number] {
  if (resends > 0) return interrupted ? { index, order, resends, interrupted } : { index, order, resends };
  return interrupted ? { index, order, interrupted } : { index, order };
}

/** Turns what a batch does to its chunks into store entries (intent, sent, outcomes, unsent, end); a no-op without a store. */
export class ChunkRecorder {
  readonly store: LedgerStore | null;

  constructor(store: LedgerStore | null) {
    this.store = store;
  }

  /** The chunk's orders, durable before it is sent. */
  intent(chunk: number, orders: readonly PendingOrder[]): Promise<void> {
    if (!this.store) return Promise.resolve();
    const journaled = orders.map(journaledOrder);
    return this.store.append({ type: 'intent', chunk, orders: journaled, at: now() });
  }

  /** The chunk's call is over and its orders are in doubt: the send counts against maxResends. Not waited for. */
  sent(chunk: number): void {
    this.store?.append({ type: 'sent', chunk, at: now() }).catch(() => {});
  }

  /** A chunk's outcomes (without each order: its intent holds it) and the orders it sends again. */
  async outcomes(chunk: number, outcomes: readonly OrderOutcome[], resend: readonly PendingOrder[], sent: boolean): Promise<void> {
    if (!this.store) return;
    const journaled = outcomes.map(withoutOrder);
    const indexes = resend.map((p) => p.index);
    await this.store.append({ type: 'outcomes', chunk, outcomes: journaled, resend: indexes, ...(sent || indexes.length === 0 ? {} : { notCounted: indexes }), at: now() });
  }

  /** Outcomes decided at intake (rejections), with their orders. */
  async rejections(outcomes: readonly OrderOutcome[]): Promise<void> {
    await this.store?.append({ type: 'outcomes', chunk: null, outcomes, at: now() });
  }

  /**
   * Chunks whose intent was written ahead but which were never sent (the batch stopped first), so a resume sends them
   * without querying. Best effort: if the store fails, resume finds plain unanswered intents and queries.
   */
  async unsent(chunks: readonly { id: number; orders: readonly PendingOrder[]; written: Promise<void> }[]): Promise<void> {
    if (!this.store || chunks.length === 0) return;
    const at = now();
    try {
      await Promise.all(chunks.map((c) => c.written));
      const entries: JournalEntry[] = chunks.map((c) => ({ type: 'outcomes', chunk: c.id, outcomes: [], unsent: c.orders.map((p) => p.index), at }));
      await this.store.append(...entries);
    } catch {
      // Unwritten here means unanswered there: still safe.
    }
  }

  /** The batch's first entry. */
  async start(entry: Extract<JournalEntry, { type: 'start' }>): Promise<void> {
    await this.store?.append(entry);
  }

  /** The batch's last entry. */
  async end(): Promise<void> {
    await this.store?.append({ type: 'end', at: now() });
  }
}
