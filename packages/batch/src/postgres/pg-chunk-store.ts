import type { BatchOperation } from '../operation/batch-operations.ts';
import { claimKeyOf } from '../order-key.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { InputRange, RecordedInput } from '../intake/input-digest.ts';
import type { ChunkCommit, ChunkStore, ClaimedChunk, IntakeStart, StoreStatus, StoreStep } from '../store/chunk-store.ts';
import { IntakeMovedOnError } from '../errors.ts';
import type { LeaseTerms, PgLedger } from './pg-ledger.ts';
import type { HeldIntakeLease } from './intake-lease.ts';

/** Who works on which batch of a ledger, and how it leases and looks for work. */
export interface PgStoreOptions {
  readonly ledger: PgLedger;
  readonly batch: string;
  readonly operation: BatchOperation;
  /** Names this worker's leases (host:pid:random by default). */
  readonly holder: string;
  readonly terms: LeaseTerms;
  /** How long to wait between looks at an intake lock another process holds. */
  readonly pollMs: number;
  /** The batch keeps a limit on requests in flight: chunks are leased only to be sent at once (none held ready). */
  readonly inFlightLimited: boolean;
}

/**
 * One worker's view of a batch kept in PostgreSQL: the ChunkStore shared by any number of workers on any machines.
 * Chunks are leased with fencing tokens (a commit holds only while its lease is this worker's), orders are claimed
 * across batches at intake, and one process at a time holds a batch's intake (a lease on the batch's row).
 */
export class PgChunkStore implements ChunkStore {
  readonly name: string;
  readonly localCounts = null;
  readonly #options: PgStoreOptions;
  /** The intake mark as this process left it: each intake statement is written only while the mark is still there. */
  #mark = 0;
  /** How the worker is told of a throttle's pause (given with `watch`). */
  #pause: ((ms: number) => void) | null = null;

  constructor(options: PgStoreOptions) {
    this.#options = options;
    this.name = `postgres:${options.batch}`;
  }

  /** As many again as the slots: enough to cover a step's round trip, few enough to leave chunks to other workers. */
  heldReady(concurrency: number): number {
    // A chunk held ready takes one of the batch's in-flight permits without being in flight.
    return this.#options.inFlightLimited ? 0 : concurrency;
  }

  get unreachable(): boolean {
    return this.#options.ledger.unreachable;
  }

  /** The ledger's round trips so far. */
  get roundTrips(): number {
    return this.#options.ledger.roundTrips;
  }

  /**
   * Takes the input in holding the batch's intake lease, from the ledger's intake mark on, waiting while another
   * process holds it (its intake ends, or it dies and its lease expires); nothing when the batch is sealed, and
   * nothing more when this process's lease ran out unrenewed and another process took the intake over.
   */
  async intake(take: (start: IntakeStart) => Promise<number>, signal?: AbortSignal): Promise<number> {
    const { ledger, batch, pollMs, holder, terms } = this.#options;
    let lock: HeldIntakeLease | null = null;
    while (lock === null) {
      if (signal?.aborted) return 0;
      lock = await ledger.tryIntakeLease(batch, holder, terms.leaseMs);
      if (lock !== null) break;
      // Another process takes the input in: wait for it, unless the batch has taken it all in meanwhile.
      const status = await ledger.status(batch);
      if (status.sealed) return status.total ?? 0;
      await new Promise((resolve) => setTimeout(resolve, Math.max(pollMs, 50)));
    }
    try {
      const status = await ledger.status(batch);
      if (status.sealed) return status.total ?? 0;
      this.#mark = status.intakeNext;
      const taken = status.intakeNext > 0 ? await ledger.takenFrom(batch, status.intakeNext) : new Set<number>();
      return await take({ from: status.intakeNext, taken: new Map([...taken].map((index) => [index, null])), resend: [] });
    } catch (error) {
      if (error instanceof IntakeMovedOnError) return 0;
      throw error;
    } finally {
      await lock.release();
    }
  }

  recordedInput(): Promise<RecordedInput> {
    return this.#options.ledger.recordedInput(this.#options.batch);
  }

  async add(chunks: readonly (readonly PendingOrder[])[], refused: readonly OrderOutcome[], next: number, read: InputRange | null): Promise<number> {
    const { ledger, batch, operation } = this.#options;
    const keyed = chunks.map((chunk) => chunk.map((pending) => ({ pending, key: claimKeyOf(operation, pending.order) })));
    const added = await ledger.intake(batch, operation, keyed, refused, next, this.#mark, read);
    this.#mark = Math.max(this.#mark, next);
    return added;
  }

  seal(total: number, read: InputRange | null, digest: string): Promise<void> {
    return this.#options.ledger.seal(this.#options.batch, total, read, digest);
  }

  async step(commits: readonly ChunkCommit[], want: number): Promise<StoreStep> {
    const { ledger, batch, holder, terms } = this.#options;
    const { pauseMs, ...step } = await ledger.step(batch, holder, terms, want, commits);
    // A throttle's pause, for a worker its notification did not reach (no wake-ups through a transaction pooler).
    if (pauseMs > 0) this.#pause?.(pauseMs);
    return step;
  }

  markSent(claimed: ClaimedChunk): Promise<boolean> {
    return this.#options.ledger.markSent(this.#options.batch, claimed);
  }

  release(chunks: readonly ClaimedChunk[]): Promise<void> {
    return this.#options.ledger.release(this.#options.batch, chunks);
  }

  async renew(chunks: readonly ClaimedChunk[]): Promise<void> {
    const { ledger, batch, holder, terms } = this.#options;
    await ledger.renew(batch, holder, terms, chunks);
  }

  watch(wake: () => void, pause: (ms: number) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
    this.#pause = pause;
    return this.#options.ledger.listen(this.#options.batch, wake, pause, signal);
  }

  throttled(retryAfterMs: number, letThrough: number): Promise<void> {
    return this.#options.ledger.throttle(this.#options.batch, this.#options.holder, retryAfterMs, letThrough);
  }

  reportLetThrough(letThrough: number): Promise<void> {
    return this.#options.ledger.reportLetThrough(this.#options.batch, this.#options.holder, letThrough);
  }

  status(): Promise<StoreStatus> {
    return this.#options.ledger.status(this.#options.batch);
  }

  outcomes(): AsyncIterable<OrderOutcome> {
    return this.#options.ledger.outcomes(this.#options.batch);
  }

  /** The ledger stays open: its opener closes it. */
  async close(): Promise<void> {}
}
