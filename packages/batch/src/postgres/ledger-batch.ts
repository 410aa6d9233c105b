import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { BatchResult, BatchSettings } from '../batch-run.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { batchSpecOf } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { progressOf } from '../progress.ts';
import { cannotTellReconciler } from '../reconciler.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import { BatchInterruptedError } from '../batch-interrupted-error.ts';
import { takeIn } from './ledger-intake.ts';
import { runLedgerWorker, type LedgerWorkerStats } from './ledger-worker.ts';
import { WakeUp } from './wake-up.ts';
import { LedgerBatchError } from './ledger-batch-error.ts';
import { IntakeMovedOnError, PgLedger, type LedgerStatus } from './pg-ledger.ts';
import { BATCH_DEFAULTS, sendTiming } from '../batch-defaults.ts';

/** Settings of a batch kept in a PostgreSQL ledger (on top of the usual batch settings). */
export interface LedgerSettings {
  /** A `postgres://` URL, or a `pg.Pool` you own: the batch is kept there, shared by every worker. */
  readonly ledger: string | pg.Pool;
  /** The batch's id in the ledger (default: a new `batch-<time>-<random>` id, in the result's `batch`). */
  readonly batch?: string;
  /** How long a worker's lease on a chunk lasts unless renewed. Default 60,000 ms; must exceed timeoutMs + sendMarginMs. */
  readonly leaseMs?: number;
  /** How long an idle worker waits before looking for a chunk again. Default 200 ms. */
  readonly pollMs?: number;
  /** Names this worker's leases in the ledger (default host:pid:random). */
  readonly holder?: string;
  /**
   * How long a worker rides out an unreachable ledger (reconnecting with backoff, sending nothing new) before it stops
   * with a LedgerUnavailableError. Default 30,000 ms.
   */
  readonly ledgerOutageMs?: number;
  /** `runBatchWorker`: how long to wait for a batch that does not exist yet (its coordinator starting). Default 30,000 ms. */
  readonly batchWaitMs?: number;
}

/** A batch result from a shared ledger, with its id, the worker's own figures and the ledger's round trips. */
export interface LedgerBatchResult extends BatchResult {
  readonly batch: string;
  readonly worker: LedgerWorkerStats;
  readonly roundTrips: number;
}

const PROGRESS_EVERY_MS = 1000;

/** A new batch id: time-ordered, unique. */
export function newBatchId(): string {
  return `batch-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`;
}

/** Runs this process's worker (and intake, when given input) on the batch, with progress from the shared ledger. */
export async function workOnLedgerBatch(
  settings: Omit<BatchSettings, 'operation'> & LedgerSettings & { readonly batch: string },
  intake: ((ledger: PgLedger, operation: BatchOperation, signal: AbortSignal, wakeUp: WakeUp) => Promise<number>) | null,
  prepare?: (ledger: PgLedger) => Promise<void>,
): Promise<LedgerBatchResult> {
  const startedAt = Date.now();
  const concurrency = settings.concurrency ?? BATCH_DEFAULTS.concurrency;
  const ledger = await PgLedger.open(settings.ledger, { maxConnections: concurrency + 4, outageMs: settings.ledgerOutageMs ?? BATCH_DEFAULTS.ledgerOutageMs, batch: settings.batch });
  try {
    await prepare?.(ledger);
    // A worker may start with the process that creates the batch: it waits for the batch, bounded.
    const waitMs = intake === null ? (settings.batchWaitMs ?? BATCH_DEFAULTS.batchWaitMs) : 0;
    const { operation } = await statusOnceCreated(ledger, settings.batch, waitMs, settings.pollMs ?? BATCH_DEFAULTS.pollMs, settings.signal);
    const progress = settings.onProgress
      ? setInterval(() => void ledger.status(settings.batch).then((s) => settings.onProgress!(progressOf({ counts: s.counts, total: settings.total ?? s.total, inFlight: 0, startedAt, now: Date.now() }))).catch(() => {}), PROGRESS_EVERY_MS)
      : null;
    // A failed intake stops the worker, and a failed worker the intake: neither waits for the other forever.
    const stop = new AbortController();
    const signal = settings.signal ? AbortSignal.any([settings.signal, stop.signal]) : stop.signal;
    let failure: unknown = null;
    const failed = (error: unknown): void => {
      failure ??= error;
      stop.abort();
    };
    let worker: LedgerWorkerStats | undefined;
    let listening: Promise<(() => Promise<void>) | null> = Promise.resolve(null);
    try {
      // The intake wakes this process's idle slots as it adds chunks; other processes' are woken by the chunks channel,
      // listened to on a connection of its own, opened beside the start rather than before it (polling covers the gap).
      const wakeUp = new WakeUp();
      listening = ledger.listen(settings.batch, () => wakeUp.wake()).catch(() => null);
      const taking = intake?.(ledger, operation, signal, wakeUp).then((n) => (wakeUp.wake(), n)).catch(failed);
      const reconcile = settings.reconcile ?? cannotTellReconciler;
      worker = await runLedgerWorker({ ledger, batch: settings.batch, operation, onOutcome: settings.onOutcome, signal, client: settings.client, concurrency, reconcile, maxResends: settings.maxResends ?? BATCH_DEFAULTS.maxResends, leaseMs: settings.leaseMs ?? BATCH_DEFAULTS.leaseMs, ...sendTiming(settings), pollMs: settings.pollMs ?? BATCH_DEFAULTS.pollMs, holder: settings.holder, wakeUp }).catch((error: unknown) => {
        failed(error);
        return undefined;
      });
      await taking;
    } finally {
      if (progress) clearInterval(progress);
      await (await listening)?.().catch(() => {});
    }
    if (failure !== null) throw failure;
    const status = await ledger.status(settings.batch);
    if (settings.signal?.aborted) throw new BatchInterruptedError(Object.values(status.counts).reduce((a, b) => a + b, 0), null);
    settings.onProgress?.(progressOf({ counts: status.counts, total: status.total, inFlight: 0, startedAt, now: Date.now() }));
    const outcomes: OrderOutcome[] = [];
    if (settings.keepOutcomes ?? true) for await (const outcome of ledger.outcomes(settings.batch)) outcomes.push(outcome);
    const total = Object.values(status.counts).reduce((a, b) => a + b, 0);
    return { operation, counts: status.counts, total, outcomes, durationMs: Date.now() - startedAt, journal: null, batch: settings.batch, worker: worker!, roundTrips: ledger.roundTrips };
  } finally {
    await ledger.close();
  }
}

/** Adds a worker to a batch in the ledger: it leases chunks until intake is over and every chunk is done. */
export function runLedgerWorkerBatch(settings: Omit<BatchSettings, 'operation'> & LedgerSettings & { readonly batch: string }): Promise<LedgerBatchResult> {
  return workOnLedgerBatch(settings, null);
}

/** Starts a batch in the ledger, takes its input in and works on it (other workers may join with `runBatchWorker`). */
export function runLedgerBatch(settings: BatchSettings & LedgerSettings, orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>): Promise<LedgerBatchResult> {
  const batch = settings.batch ?? newBatchId();
  const limit = batchSpecOf(settings.operation).limit;
  return workOnLedgerBatch(
    { ...settings, batch },
    (ledger, operation, signal, wakeUp) => withIntakeLock(ledger, batch, settings.pollMs ?? BATCH_DEFAULTS.pollMs, signal, () => takeIn({ ledger, batch, operation, limit, orders, from: 0, onOutcome: settings.onOutcome, signal, onChunk: () => wakeUp.wakeOne() })),
    (ledger) => ledger.createBatch(batch, settings.operation, limit),
  );
}

/** Resumes a ledger batch from any machine: the rest of its input when intake had not finished, then the work. */
export function resumeLedgerBatch(
  settings: Omit<BatchSettings, 'operation'> & LedgerSettings & { readonly batch: string; readonly operation?: BatchOperation },
  orders: (() => Iterator<PendingOrder> | AsyncIterator<PendingOrder>) | null,
): Promise<LedgerBatchResult> {
  return workOnLedgerBatch(settings, async (ledger, operation, signal, wakeUp) => {
    if (settings.operation && settings.operation !== operation) throw new LedgerBatchError(settings.batch, `is a ${operation} batch, not ${settings.operation}`);
    if ((await ledger.status(settings.batch)).sealed) return 0;
    if (orders === null) throw new LedgerBatchError(settings.batch, 'has not taken all its input in yet: resume it with the same orders');
    // Another process may still be taking the input in: this one goes on only once it holds the intake lock.
    return withIntakeLock(ledger, settings.batch, settings.pollMs ?? BATCH_DEFAULTS.pollMs, signal, async () => {
      const status = await ledger.status(settings.batch);
      if (status.sealed) return status.total ?? 0;
      return takeIn({ ledger, batch: settings.batch, operation, limit: status.limit, orders: orders(), from: status.intakeNext, onOutcome: settings.onOutcome, signal, onChunk: () => wakeUp.wakeOne() });
    });
  });
}

/**
 * Runs `intake` holding the batch's intake lock, waiting for it while another process holds it (that process's
 * intake ends, or it dies and its lock goes with its connection); gives up when the batch is sealed meanwhile.
 */
async function withIntakeLock(ledger: PgLedger, batch: string, pollMs: number, signal: AbortSignal, intake: () => Promise<number>): Promise<number> {
  for (;;) {
    if (signal.aborted) return 0;
    const lock = await ledger.tryIntakeLock(batch);
    if (lock) {
      try {
        return await intake();
      } catch (error) {
        // Its lock was lost with a connection and another process took the intake over: this one only works.
        if (error instanceof IntakeMovedOnError) return 0;
        throw error;
      } finally {
        await lock.release();
      }
    }
    const status = await ledger.status(batch);
    if (status.sealed) return status.total ?? 0;
    await new Promise((resolve) => setTimeout(resolve, Math.max(pollMs, 50)));
  }
}

/** The batch's status, waiting up to `waitMs` (polling every `pollMs`) while it does not exist yet. */
async function statusOnceCreated(ledger: PgLedger, batch: string, waitMs: number, pollMs: number, signal: AbortSignal | undefined): Promise<LedgerStatus> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      return await ledger.status(batch);
    } catch (error) {
      if (!(error instanceof LedgerBatchError) || performance.now() >= deadline || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, 100)));
    }
  }
}

/** Every final outcome of a batch kept in a PostgreSQL ledger, in input order (for exports, from any machine). */
export async function outcomesFromLedger(ledger: string | pg.Pool, batch: string): Promise<OrderOutcome[]> {
  const store = await PgLedger.open(ledger, { maxConnections: 1 });
  try {
    await store.status(batch);
    const outcomes: OrderOutcome[] = [];
    for await (const outcome of store.outcomes(batch)) outcomes.push(outcome);
    return outcomes;
  } finally {
    await store.close();
  }
}
