import { OrderIntake, type Refusal } from '../intake/order-intake.ts';
import type { InputDifference, InputDigest } from '../intake/input-digest.ts';
import { orderMismatch, sameOrder } from '../intake/input-mismatch.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { ChunkStore, IntakeStart } from '../store/chunk-store.ts';
import type { InputRange } from '../intake/input-digest.ts';
import { ChunkQueue } from '../intake/chunk-queue.ts';

/**
 * Chunks added by one store call at most (one round trip or one journal write for several chunks). The first call
 * adds one chunk, so workers start at once; each next one twice as many, up to this, so intake keeps ahead of them.
 */
const MAX_CHUNKS_PER_ADD = 16;

/** Rejections written with one call at most (an input of invalid orders still goes in steps). */
const REFUSED_PER_ADD = 500;

/** What an intake is given: the store, where it starts, and the input numbered from its start. */
export interface IntakeOptions {
  readonly store: ChunkStore;
  readonly operation: BatchOperation;
  readonly limit: number;
  readonly orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>;
  readonly start: IntakeStart;
  readonly onOutcome?: ((outcome: OrderOutcome) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Called for each chunk added (wakes this process's idle worker slots). */
  readonly onChunk?: (() => void) | undefined;
  /** The input's identity as it is read: checked against what the store recorded, then recorded with each add. */
  readonly digest: InputDigest;
  /** The typed error for where the input differs from the batch's own. */
  readonly mismatch: (difference: InputDifference) => Promise<Error>;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

const rejected = (pending: PendingOrder, refusal: Refusal): OrderOutcome => ({
  index: pending.index,
  kind: 'rejected',
  order: pending.order,
  reason: refusal.reason,
  problems: refusal.problems,
});

type FlushMode = 'batch' | 'full' | 'all';

/**
 * Takes a batch's input into its store: card data and duplicates are refused as each order is read; the rest are
 * queued and checked against the spec a chunk at a time (as the one request that carries them), the invalid ones
 * refused each with its own problems, and the valid ones cut into chunks the workers lease. One add is in flight at
 * a time while the next orders are read. Input orders the store holds already (a resume) are only remembered for
 * duplicate detection, after a check that they are the same. Nothing is added before the input is known to be the
 * batch's own (every range the store recorded read again and found the same): a resume given another input adds
 * nothing and throws InputMismatchError. Returns how many input orders were read.
 */
export function takeIn(options: IntakeOptions): Promise<number> {
  return new Intake(options).run();
}

/** One intake's state: the queue, the refusals not written yet, the add in flight. */
class Intake {
  readonly #options: IntakeOptions;
  readonly #limit: number;
  readonly #intake: OrderIntake;
  readonly #queue: ChunkQueue;
  #refused: OrderOutcome[] = [];
  #read: number;
  #perAdd = 1;
  #inFlight: Promise<void> = Promise.resolve();
  #failure: { error: unknown } | null = null;
  /** One flush at a time (each add moves the store's intake mark past the one before). */
  #flushing: Promise<void> = Promise.resolve();
  #waitingForInput = false;
  #checkArmed = false;

  constructor(options: IntakeOptions) {
    this.#options = options;
    this.#limit = options.limit;
    this.#intake = new OrderIntake(options.operation);
    this.#queue = new ChunkQueue(options.limit);
    this.#queue.requeue(options.start.resend);
    this.#read = options.start.from;
  }

  async run(): Promise<number> {
    const { orders, start, store, signal, digest } = this.#options;
    let ended = false;
    for (;;) {
      if (signal?.aborted || this.#failure) break;
      const step = orders.next();
      let next: IteratorResult<PendingOrder>;
      if (isPromise(step)) {
        if (this.#queue.size >= this.#limit) this.#checkPause();
        this.#waitingForInput = true;
        next = await step;
        this.#waitingForInput = false;
      } else next = step;
      if (next.done) {
        ended = true;
        break;
      }
      const pending = next.value;
      this.#read = pending.index + 1;
      const difference = digest.take(pending);
      if (difference) throw await this.#options.mismatch(difference);
      if (pending.index < start.from || start.taken.has(pending.index)) {
        known(store.name, start, pending);
        this.#intake.remember(pending);
        continue;
      }
      const refusal = this.#intake.admission(pending);
      if (refusal === null) this.#queue.push(pending);
      else this.#refused.push(rejected(pending, refusal));
      if (digest.past && this.#due('batch')) await this.#flush('batch');
    }
    const difference = ended ? digest.end() : null;
    if (difference) throw await this.#options.mismatch(difference);
    // Orders of an input not yet found the batch's own (a stop while a resume checks it) are never added.
    if (digest.past) await this.#flush('all');
    await this.#inFlight;
    if (this.#failure) throw (this.#failure as { error: unknown }).error;
    if (!signal?.aborted && ended) await store.seal(this.#read, digest.cut(), digest.whole());
    return this.#read;
  }

  /**
   * An input that makes this process wait (a stream, a paginated source) does not hold back full chunks it gave:
   * once per turn of the event loop at most, a check that runs while the intake still waits for input hands them over.
   */
  #checkPause(): void {
    if (this.#checkArmed) return;
    this.#checkArmed = true;
    setImmediate(() => {
      this.#checkArmed = false;
      if (this.#waitingForInput && this.#options.digest.past && this.#due('full'))
        this.#flush('full').catch((error: unknown) => void (this.#failure ??= { error }));
    });
  }

  /**
   * Whether there is something to add: `batch`, as many chunks as one add takes (or many refusals); `full`, a full
   * chunk (the input paused: what it gave goes out); `all`, anything (the input ended).
   */
  #due(mode: FlushMode): boolean {
    const queued = this.#queue.size;
    if (mode === 'all') return queued > 0 || this.#refused.length > 0;
    if (mode === 'full') return queued >= this.#limit;
    return queued >= this.#limit * this.#perAdd || this.#refused.length >= REFUSED_PER_ADD;
  }

  #flush(mode: FlushMode): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#adds(mode));
    return this.#flushing;
  }

  async #adds(mode: FlushMode): Promise<void> {
    while (this.#due(mode)) {
      await this.#inFlight;
      if (this.#failure) throw this.#failure.error;
      const chunks = this.#cutChunks(mode);
      this.#perAdd = Math.min(this.#perAdd * 2, MAX_CHUNKS_PER_ADD);
      const rejections = this.#refused;
      this.#refused = [];
      // The intake mark: every input order before it is in the store (or in this add).
      this.#inFlight = this.#add(chunks, rejections, this.#queue.firstIndex ?? this.#read).catch((error: unknown) => void (this.#failure ??= { error }));
      if (chunks.length === 0 || mode === 'full') break;
    }
  }

  /** The chunks of one add. A chunk left short because the queue ran dry waits for more input, unless it has ended. */
  #cutChunks(mode: FlushMode): PendingOrder[][] {
    const chunks: PendingOrder[][] = [];
    while (mode === 'full' ? this.#queue.size >= this.#limit : chunks.length < this.#perAdd) {
      const chunk = this.#cut();
      if (chunk.length === 0) break;
      if (chunk.length < this.#limit && this.#queue.size === 0 && mode !== 'all') {
        this.#queue.requeue(chunk);
        break;
      }
      chunks.push(chunk);
    }
    return chunks;
  }

  /**
   * The next chunk of valid orders from the queue (invalid ones refused on the way): full, or short when the queue ran
   * dry or holds only other elements of orders already in it (never two in one request).
   */
  #cut(): PendingOrder[] {
    const chunk: PendingOrder[] = [];
    while (chunk.length < this.#limit && this.#queue.size > 0) {
      const checked = chunk.length;
      this.#queue.next(chunk);
      if (chunk.length === checked) break;
      const fresh = chunk.splice(checked);
      const refusals = this.#intake.chunkRefusals(fresh);
      fresh.forEach((pending, i) => (refusals[i] ? this.#refused.push(rejected(pending, refusals[i])) : chunk.push(pending)));
    }
    return chunk;
  }

  #add(chunks: PendingOrder[][], rejections: OrderOutcome[], next: number): Promise<void> {
    // The input read up to now goes with this add: its identity is recorded with what it gave, in the same write.
    return this.#write(chunks, rejections, next, this.#options.digest.cut());
  }

  async #write(chunks: PendingOrder[][], rejections: OrderOutcome[], next: number, read: InputRange | null): Promise<void> {
    const { store, signal, onChunk, onOutcome } = this.#options;
    const added = await store.add(chunks, rejections, next, read, signal);
    for (let i = 0; i < added; i++) onChunk?.();
    for (const outcome of rejections) onOutcome?.(outcome);
  }
}

/** Checks an input order the store holds already is the one it holds (when the store says which: a journal). */
function known(name: string, start: IntakeStart, pending: PendingOrder): void {
  const stored = start.taken.get(pending.index);
  if (stored !== undefined && stored !== null && !sameOrder(pending, stored)) throw orderMismatch(name, pending, stored);
}
