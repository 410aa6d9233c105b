import { withoutOrder, type BatchJournal, type JournalEntry } from './batch-journal.ts';
import { JournalLockLostError } from '../errors.ts';
import { JournalLease } from './journal-lease.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome, OutcomeCounts } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { ChunkCommit, ChunkStore, ClaimedChunk, IntakeStart, StoreStatus, StoreStep } from '../store/chunk-store.ts';
import { OutcomeTally } from '../store/outcome-tally.ts';
import type { JournalState } from './journal-state.ts';
import { NOTHING_RECORDED, type InputRange, type RecordedInput } from '../intake/input-digest.ts';

const now = (): string => new Date().toISOString();

/** A chunk not leased yet: its orders, and whether an earlier run may have sent it (then how long to wait before a query). */
interface ReadyChunk {
  readonly chunk: number;
  readonly orders: PendingOrder[];
  readonly takenOver: boolean;
  readonly sent: boolean;
  readonly quietWaitMs: number;
}

/** An order as its chunk's intent holds it: `resends` and `interrupted` only when not 0. */
function journaledOrder({ index, order, resends, interrupted }: PendingOrder): Extract<JournalEntry, { type: 'intent' }>['orders'][number] {
  if (resends > 0) return interrupted ? { index, order, resends, interrupted } : { index, order, resends };
  return interrupted ? { index, order, interrupted } : { index, order };
}

/** How a journal store is set up: the batch, the file (null: kept in memory only), how far intents run ahead. */
export interface JournalStoreOptions {
  readonly journal: BatchJournal | null;
  readonly operation: BatchOperation;
  readonly limit: number;
  /** Chunks whose intent is written before a slot is free for them (their intents go to disk while requests are out). */
  readonly lookahead: number;
  readonly keepOutcomes: boolean;
  /** The journal's lock as this run holds it (null: a batch kept in memory, which no other run can reach). */
  readonly lock: { readonly lockFile: string; held(): boolean } | null;
}

/**
 * A batch kept by one process, in a journal file (or in memory alone): the ChunkStore of `runBatch` and `resumeBatch`
 * without a ledger. The run is the only holder (the journal's lock keeps any other out), so leases never end and
 * every commit holds. Each chunk's intent is on disk before the chunk can be leased, its outcomes after; a crash
 * between the two leaves an intent without outcomes, which a resume takes over: queried, never sent blindly again.
 */
export class JournalChunkStore implements ChunkStore {
  readonly name: string;
  readonly unreachable = false;
  readonly #journal: BatchJournal | null;
  readonly #options: JournalStoreOptions;
  readonly #tally: OutcomeTally;
  readonly #ready: ReadyChunk[] = [];
  readonly #inHand = new Set<number>();
  readonly #intake: IntakeStart;
  #nextChunk: number;
  #sealed = false;
  #total: number | null = null;
  #room: (() => void) | null = null;
  /** Chunks of orders sent again whose intent is on its way to disk (ready once it is there). */
  #resending = 0;

  readonly #recorded: RecordedInput;

  private constructor(options: JournalStoreOptions, nextChunk: number, intake: IntakeStart, recorded: RecordedInput) {
    this.#options = options;
    this.#recorded = recorded;
    this.#journal = options.journal;
    this.name = options.journal?.path ?? 'memory';
    this.#tally = new OutcomeTally({ keepOutcomes: options.keepOutcomes });
    this.#nextChunk = nextChunk;
    this.#intake = intake;
  }

  /** A new batch (its start line already written). */
  static start(options: JournalStoreOptions): JournalChunkStore {
    return new JournalChunkStore(options, 1, { from: 0, taken: new Map(), resend: [] }, NOTHING_RECORDED);
  }

  /**
   * A batch read back from its journal: its outcomes counted, its chunks in doubt taken over (queried after
   * `quietWaitMs`, when a run that died may still have a request in flight), its orders found not applied sent again.
   */
  static resume(options: JournalStoreOptions, state: JournalState, quietWaitMs: number): JournalChunkStore {
    const { journaled } = state;
    const recorded: RecordedInput = {
      ...state.input,
      ordersAt: async (from, upto) => new Map([...journaled].filter(([index]) => index >= from && index < upto)),
    };
    const store = new JournalChunkStore(options, state.lastChunk + 1, { from: 0, taken: journaled, resend: state.resend }, recorded);
    for (const outcome of state.decided.values()) store.#tally.restore(outcome);
    for (const [chunk, orders] of [...state.inDoubt].sort((a, b) => a[0] - b[0])) {
      store.#ready.push({ chunk, orders, takenOver: true, sent: state.sent.has(chunk), quietWaitMs });
    }
    return store;
  }

  get localCounts(): OutcomeCounts {
    return this.#tally.counts;
  }

  /** Twice the slots: no other worker wants them, and a journal write (a step) takes as long as a few requests. */
  heldReady(concurrency: number): number {
    return 2 * concurrency;
  }

  async recordedInput(): Promise<RecordedInput> {
    return this.#recorded;
  }

  intake(take: (start: IntakeStart) => Promise<number>): Promise<number> {
    return take(this.#intake);
  }

  async add(
    chunks: readonly (readonly PendingOrder[])[],
    refused: readonly OrderOutcome[],
    _next: number,
    read: InputRange | null,
    signal?: AbortSignal,
  ): Promise<number> {
    // Input is read only as fast as requests go out: at most `lookahead` chunks wait for a slot.
    while (this.#ready.length >= this.#options.lookahead && !signal?.aborted) await this.#roomOrStop(signal);
    this.#checkFence();
    // Stopped: no chunk is added, but the input read stays on record (the next range starts after it).
    if (signal?.aborted) {
      if (read) await this.#journal?.append({ type: 'input', range: read, at: now() });
      return 0;
    }
    const at = now();
    const added: ReadyChunk[] = chunks.map((orders) => ({ chunk: this.#nextChunk++, orders: [...orders], takenOver: false, sent: false, quietWaitMs: 0 }));
    const entries: JournalEntry[] = added.map((c) => ({ type: 'intent', chunk: c.chunk, orders: c.orders.map(journaledOrder), at }));
    if (refused.length > 0) entries.push({ type: 'outcomes', chunk: null, outcomes: refused, at });
    if (read) entries.push({ type: 'input', range: read, at });
    if (entries.length > 0) await this.#journal?.append(...entries);
    for (const outcome of refused) this.#tally.decide(outcome);
    this.#ready.push(...added);
    return added.length;
  }

  /** Resolves when a lease takes chunks, or the batch stops. */
  #roomOrStop(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        this.#room = null;
        resolve();
      };
      this.#room = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async seal(total: number, read: InputRange | null, digest: string): Promise<void> {
    this.#checkFence();
    await this.#journal?.append({ type: 'input', ...(read ? { range: read } : {}), sealed: { total, digest }, at: now() });
    this.#sealed = true;
    this.#total = total;
  }

  async step(commits: readonly ChunkCommit[], want: number): Promise<StoreStep> {
    this.#checkFence();
    const at = now();
    const entries: JournalEntry[] = [];
    const resent: ReadyChunk[] = [];
    for (const { claimed, outcomes, resend } of commits) {
      for (const outcome of outcomes) this.#tally.decide(outcome);
      const indexes = resend.map((p) => p.index);
      // A send nothing proved had left (a chunk taken over with no `sent` line) does not count against maxResends.
      const counted = !claimed.takenOver || claimed.sent;
      entries.push({
        type: 'outcomes',
        chunk: claimed.chunk,
        outcomes: outcomes.map(withoutOrder),
        resend: indexes,
        ...(counted || indexes.length === 0 ? {} : { notCounted: indexes }),
        at,
      });
      if (resend.length > 0) {
        const again: ReadyChunk = { chunk: this.#nextChunk++, orders: [...resend], takenOver: false, sent: false, quietWaitMs: 0 };
        entries.push({ type: 'intent', chunk: again.chunk, orders: again.orders.map(journaledOrder), at });
        resent.push(again);
      }
      this.#inHand.delete(claimed.chunk);
    }
    // Written behind: the chunks ready now are leased at once; the commits are reported once durable. A chunk sent
    // again waits for its intent, as every chunk does.
    const durable = entries.length > 0 && this.#journal ? this.#journal.append(...entries) : undefined;
    if (resent.length > 0 && durable) {
      this.#resending += resent.length;
      void durable.then(
        () => {
          this.#resending -= resent.length;
          this.#ready.unshift(...resent);
        },
        () => {},
      );
    } else this.#ready.unshift(...resent);
    const leased = this.#ready.splice(0, Math.max(0, want)).map((c) => this.#lease(c));
    if (leased.length > 0) this.#room?.();
    const finished = this.#sealed && this.#ready.length === 0 && this.#inHand.size === 0 && this.#resending === 0;
    return { held: new Set(commits.map((c) => c.claimed.chunk)), leased, finished, ...(durable ? { durable } : {}) };
  }

  #lease(ready: ReadyChunk): ClaimedChunk {
    this.#inHand.add(ready.chunk);
    // The run is the journal's only holder: its lease lasts while it holds the journal's lock.
    return { ...ready, fence: 1, lease: this.#leaseOf };
  }

  readonly #leaseOf = new JournalLease(() => this.#options.lock?.held() ?? true);

  /** Stops the batch once the journal's lock is no longer this run's: nothing more is written or sent. */
  #checkFence(): void {
    const lock = this.#options.lock;
    if (lock && !lock.held()) throw new JournalLockLostError(this.name, lock.lockFile);
  }

  async markSent(claimed: ClaimedChunk): Promise<boolean> {
    // Not waited for: if a crash comes first, the chunk is queried on resume all the same.
    this.#journal?.append({ type: 'sent', chunk: claimed.chunk, at: now() }).catch(() => {});
    return true;
  }

  async release(chunks: readonly ClaimedChunk[]): Promise<void> {
    for (const c of chunks) this.#inHand.delete(c.chunk);
    this.#ready.unshift(...chunks.map((c) => ({ chunk: c.chunk, orders: c.orders, takenOver: c.takenOver, sent: c.sent, quietWaitMs: c.quietWaitMs })));
  }

  async renew(): Promise<void> {}

  async watch(): Promise<() => Promise<void>> {
    return async () => {};
  }

  /** The run is the journal's only holder: its own pacer is the batch's. */
  async throttled(): Promise<void> {}

  async reportLetThrough(): Promise<void> {}

  async status(): Promise<StoreStatus> {
    return {
      operation: this.#options.operation,
      limit: this.#options.limit,
      sealed: this.#sealed,
      total: this.#total,
      counts: { ...this.#tally.counts },
      throttled: null,
      pace: null,
    };
  }

  async *outcomes(): AsyncGenerator<OrderOutcome> {
    yield* this.#tally.outcomes();
  }

  /**
   * Writes the last entries and closes the file: `end` when every order has its outcome; otherwise the chunks whose
   * intent was written and which were never sent, as unsent (a resume sends them without a query). A chunk taken over
   * is never marked unsent: the run that died may have sent it.
   */
  async close(finished: boolean): Promise<void> {
    if (!this.#journal) return;
    try {
      const at = now();
      const unsent = this.#ready.filter((c) => !c.takenOver);
      const entries: JournalEntry[] = finished
        ? [{ type: 'end', at }]
        : unsent.map((c) => ({ type: 'outcomes', chunk: c.chunk, outcomes: [], unsent: c.orders.map((p) => p.index), at }));
      // Best effort when the batch stops: unwritten here means unanswered there, still safe.
      if (entries.length > 0)
        await this.#journal.append(...entries).catch((error: unknown) => {
          if (finished) throw error;
        });
    } finally {
      await this.#journal.close();
    }
  }
}
