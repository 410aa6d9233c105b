import { OrderIntake } from '../intake/order-intake.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { claimKeyOf } from '../order-key.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import { ChunkQueue } from '../window/chunk-queue.ts';
import type { PgLedger } from './pg-ledger.ts';

/**
 * Chunks taken in by one statement at most (one round trip for several chunks). The first statement takes one chunk,
 * so workers start at once; each next one twice as many, up to this, so intake keeps ahead of the workers.
 */
const MAX_CHUNKS_PER_STATEMENT = 16;

/** Rejections written with one statement at most (an input of invalid orders still goes in steps). */
const REFUSED_PER_STATEMENT = 500;

/** What an intake is given: the ledger and batch, and the input numbered from its start. */
export interface LedgerIntakeOptions {
  readonly ledger: PgLedger;
  readonly batch: string;
  readonly operation: BatchOperation;
  readonly limit: number;
  readonly orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>;
  /** Input orders before this index were taken in by an earlier run (resume). */
  readonly from: number;
  readonly onOutcome?: ((outcome: OrderOutcome) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Called after each statement that may have added a chunk (wakes this process's idle worker slots). */
  readonly onChunk?: (() => void) | undefined;
}

/**
 * Takes a batch's input into the ledger a chunk at a time (one statement each): card data, duplicates and invalid
 * orders are rejected as in a file-journal batch, accepted orders are claimed across batches and cut into chunks that
 * workers lease. The intake mark moves with each chunk, so a resume from any machine goes on where it stopped.
 */
export async function takeIn(options: LedgerIntakeOptions): Promise<number> {
  const { ledger, batch, operation, limit, orders } = options;
  const intake = new OrderIntake(operation);
  const queue = new ChunkQueue(limit);
  const taken = options.from > 0 ? await ledger.takenFrom(batch, options.from) : new Set<number>();
  let refused: OrderOutcome[] = [];
  let read = 0;
  let perStatement = 1;
  // One statement in flight at a time (each moves the intake mark only past what it and those before it wrote), while
  // the next orders are read and checked.
  let inFlight: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  // The intake mark as this process left it: each statement is written only while the mark is still there.
  let mark = options.from;
  const send = async (chunks: PendingOrder[][], rejections: OrderOutcome[], next: number): Promise<void> => {
    const keyed = chunks.map((chunk) => chunk.map((pending) => ({ pending, key: claimKeyOf(operation, pending.order) })));
    const added = await ledger.intake(batch, operation, keyed, rejections, next, mark);
    mark = Math.max(mark, next);
    for (let i = 0; i < added; i++) options.onChunk?.();
    for (const outcome of rejections) options.onOutcome?.(outcome);
  };
  const flush = async (all: boolean): Promise<void> => {
    while (queue.size >= limit * perStatement || refused.length >= REFUSED_PER_STATEMENT || (all && (queue.size > 0 || refused.length > 0))) {
      await inFlight;
      if (failure) throw failure.error;
      const chunks: PendingOrder[][] = [];
      while (chunks.length < perStatement && queue.size > 0) chunks.push(queue.next());
      perStatement = Math.min(perStatement * 2, MAX_CHUNKS_PER_STATEMENT);
      const rejections = refused;
      refused = [];
      inFlight = send(chunks, rejections, queue.firstIndex ?? read).catch((error: unknown) => void (failure ??= { error }));
      if (chunks.length === 0) break;
    }
  };
  for (;;) {
    if (options.signal?.aborted) break;
    const step = await orders.next();
    if (step.done) break;
    const pending = step.value;
    read = pending.index + 1;
    if (pending.index < options.from || taken.has(pending.index)) {
      intake.remember(pending);
      continue;
    }
    const refusal = intake.refusal(pending);
    if (refusal === null) queue.push(pending);
    else refused.push({ index: pending.index, kind: 'rejected', order: pending.order, reason: refusal.reason, problems: refusal.problems });
    if (queue.size >= limit * perStatement || refused.length >= REFUSED_PER_STATEMENT) await flush(false);
  }
  await flush(true);
  await inFlight;
  if (failure) throw (failure as { error: unknown }).error;
  if (!options.signal?.aborted) await ledger.seal(batch, read);
  return read;
}
