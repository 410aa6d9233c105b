import { OrderIntake, type Refusal } from '../intake/order-intake.ts';
import { JournalMismatchError } from '../journal-mismatch-error.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { ChunkStore, IntakeStart } from '../store/chunk-store.ts';
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
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

const rejected = (pending: PendingOrder, refusal: Refusal): OrderOutcome => ({ index: pending.index, kind: 'rejected', order: pending.order, reason: refusal.reason, problems: refusal.problems });

/**
 * Takes a batch's input into its store: card data and duplicates are refused as each order is read; the rest are
 * queued and checked against the spec a chunk at a time (as the one request that carries them), the invalid ones
 * refused each with its own problems, and the valid ones cut into chunks the workers lease. One add is in flight at
 * a time while the next orders are read. Input orders the store holds already (a resume) are only remembered for
 * duplicate detection, after a check that they are the same. Returns how many input orders were read.
 */
export async function takeIn(options: IntakeOptions): Promise<number> {
  const { store, operation, limit, orders, start } = options;
  const intake = new OrderIntake(operation);
  const queue = new ChunkQueue(limit);
  queue.requeue(start.resend);
  let refused: OrderOutcome[] = [];
  let read = start.from;
  let perAdd = 1;
  let inFlight: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;

  /** The next chunk of valid orders from the queue (invalid ones refused on the way), or null when the queue is empty. */
  const cut = (): PendingOrder[] | null => {
    const chunk: PendingOrder[] = [];
    while (chunk.length < limit && queue.size > 0) {
      const checked = chunk.length;
      queue.next(chunk);
      if (chunk.length === checked) break;
      const fresh = chunk.splice(checked);
      const refusals = intake.chunkRefusals(fresh);
      fresh.forEach((pending, i) => (refusals[i] ? refused.push(rejected(pending, refusals[i])) : chunk.push(pending)));
    }
    return chunk.length > 0 ? chunk : null;
  };
  const add = async (chunks: PendingOrder[][], rejections: OrderOutcome[], next: number): Promise<void> => {
    const added = await store.add(chunks, rejections, next, options.signal);
    for (let i = 0; i < added; i++) options.onChunk?.();
    for (const outcome of rejections) options.onOutcome?.(outcome);
  };
  /**
   * Adds what is queued: `batch`, as many chunks per add as the store takes at once (while that many are queued);
   * `full`, every full chunk queued now (the input paused: what it gave goes out); `all`, everything (the input ended).
   */
  const flush = async (mode: 'batch' | 'full' | 'all'): Promise<void> => {
    const due = (): boolean =>
      mode === 'all' ? queue.size > 0 || refused.length > 0 : mode === 'full' ? queue.size >= limit : queue.size >= limit * perAdd || refused.length >= REFUSED_PER_ADD;
    while (due()) {
      await inFlight;
      if (failure) throw failure.error;
      const chunks: PendingOrder[][] = [];
      while (mode === 'full' ? queue.size >= limit : chunks.length < perAdd) {
        const chunk = cut();
        if (chunk === null) break;
        // Invalid orders left the chunk short: it waits for more input to fill it, unless the input has ended.
        if (chunk.length < limit && mode !== 'all') {
          queue.requeue(chunk);
          break;
        }
        chunks.push(chunk);
      }
      perAdd = Math.min(perAdd * 2, MAX_CHUNKS_PER_ADD);
      const rejections = refused;
      refused = [];
      inFlight = add(chunks, rejections, queue.firstIndex ?? read).catch((error: unknown) => void (failure ??= { error }));
      if (chunks.length === 0 || mode === 'full') break;
    }
  };
  // One flush at a time (each add moves the store's intake mark past the one before).
  let flushing: Promise<void> = Promise.resolve();
  const flushNow = (mode: 'batch' | 'full' | 'all'): Promise<void> => (flushing = flushing.then(() => flush(mode)));
  // An input that makes this process wait (a stream, a paginated source) does not hold back full chunks it gave: once
  // per turn of the event loop at most, a check that runs when the intake is still waiting for input hands them over.
  let waitingForInput = false;
  let checkArmed = false;
  const checkPause = (): void => {
    if (checkArmed) return;
    checkArmed = true;
    setImmediate(() => {
      checkArmed = false;
      if (waitingForInput && queue.size >= limit) flushNow('full').catch((error: unknown) => void (failure ??= { error }));
    });
  };
  for (;;) {
    if (options.signal?.aborted || failure) break;
    const step = orders.next();
    let next: IteratorResult<PendingOrder>;
    if (isPromise(step)) {
      if (queue.size >= limit) checkPause();
      waitingForInput = true;
      next = await step;
      waitingForInput = false;
    } else next = step;
    if (next.done) break;
    const pending = next.value;
    read = pending.index + 1;
    if (pending.index < start.from || start.taken.has(pending.index)) {
      known(store.name, start, pending);
      intake.remember(pending);
      continue;
    }
    const refusal = intake.admission(pending);
    if (refusal === null) queue.push(pending);
    else refused.push(rejected(pending, refusal));
    if (queue.size >= limit * perAdd || refused.length >= REFUSED_PER_ADD) await flushNow('batch');
  }
  await flushNow('all');
  await inFlight;
  if (failure) throw (failure as { error: unknown }).error;
  if (!options.signal?.aborted) await store.seal(read);
  return read;
}

/** Checks an input order the store holds already is the one it holds (when the store says which). */
function known(name: string, start: IntakeStart, pending: PendingOrder): void {
  const stored = start.taken.get(pending.index);
  if (stored === undefined || stored === null) return;
  if (JSON.stringify(stored) !== JSON.stringify(pending.order)) {
    throw new JournalMismatchError(name, pending.index, `input order #${pending.index} differs from the one journaled`);
  }
}
