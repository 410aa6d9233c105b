import type pg from 'pg';
import type { BatchResult } from '../settings/batch-settings.ts';
import { requestsEndWithinMs, type BatchStore, type ResolvedBatchSettings } from '../settings/resolve-batch-settings.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { batchSpecOf } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { runOnStore } from '../runner/run-on-store.ts';
import type { WorkerStats } from '../runner/worker-loop.ts';
import { WakeUp } from '../runner/wake-up.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import { LedgerBatchError } from '../errors.ts';
import { PgChunkStore } from './pg-chunk-store.ts';
import { PgLedger, type LedgerStatus } from './pg-ledger.ts';

/** Settings of a batch kept in a PostgreSQL ledger (on top of the usual batch settings). */
export interface LedgerSettings {
  /** A `postgres://` URL, or a `pg.Pool` you own: the batch is kept there, shared by every worker. */
  readonly ledger: string | pg.Pool;
  /**
   * A `postgres://` URL reaching the same database directly, for wake-ups (LISTEN), when `ledger` goes through a
   * transaction pooler (PgBouncer's default), which delivers no notification. Without it such a ledger's workers poll.
   */
  readonly ledgerListen?: string;
  /** Hears what the ledger says once at start: its workers poll, as its connection delivers no notification. */
  readonly onNotice?: (message: string) => void;
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
  readonly worker: WorkerStats;
  readonly roundTrips: number;
}

/** A batch's settings as the ledger takes them: resolved, kept in a ledger. */
type LedgerRun = ResolvedBatchSettings & { readonly store: Extract<BatchStore, { kind: 'ledger' }> };

/** The input of a batch, read when this process takes the intake (null: this process only works). */
type InputOf = (() => Iterator<PendingOrder> | AsyncIterator<PendingOrder>) | null;

/** How this process joins a ledger batch: creating it (a new batch), resuming it, or as one more worker. */
type Joining =
  | { readonly create: { readonly operation: BatchOperation; readonly limit: number; readonly declared: number | null } }
  | { readonly resume: true }
  | { readonly worker: true };

/** Runs this process's worker (and intake, when given input) on a batch kept in the ledger, through the one runner. */
async function workOnLedgerBatch(settings: LedgerRun, input: InputOf, joining: Joining): Promise<LedgerBatchResult> {
  const { batch, leaseMs, pollMs, holder } = settings.store;
  const { ledgerListen, onNotice } = settings.store;
  const ledger = await PgLedger.open(settings.store.ledger, {
    maxConnections: settings.concurrency + 4,
    outageMs: settings.store.ledgerOutageMs,
    batch,
    listen: ledgerListen,
    onNotice,
  });
  try {
    // The batch this process creates is known; another is read, and a worker started with the process that creates
    // it waits for it, bounded.
    if ('create' in joining) await ledger.createBatch(batch, joining.create.operation, joining.create.limit, joining.create.declared);
    const waitMs = 'worker' in joining ? settings.store.batchWaitMs : 0;
    const status = 'create' in joining ? null : await statusOnceCreated(ledger, batch, waitMs, pollMs, settings.signal);
    const operation = 'create' in joining ? joining.create.operation : status!.operation;
    if (settings.operation && settings.operation !== operation) throw new LedgerBatchError(batch, `is a ${operation} batch, not ${settings.operation}`);
    if ('resume' in joining && input === null && !status!.sealed)
      throw new LedgerBatchError(batch, 'has not taken all its input in yet: resume it with the same orders');
    // The limits given hold for every worker of the batch: the process that creates it sets them, a resume or a worker given them sets them anew.
    const limited = settings.maxRate !== null || settings.maxInFlight !== null;
    if (limited) await ledger.setLimits(batch, settings.maxRate, settings.maxInFlight);
    const inFlightLimited = (await ledger.status(batch)).inFlightLimited;
    const store = new PgChunkStore({
      ledger,
      batch,
      operation,
      holder,
      terms: { leaseMs, sendWindowMs: requestsEndWithinMs(settings) },
      pollMs,
      inFlightLimited,
    });
    const result = await runOnStore(
      store,
      settings,
      { operation, holder, leaseMs, pollMs, journal: null, batch, shared: true, role: 'create' in joining ? 'run' : 'resume' in joining ? 'resume' : 'worker' },
      input,
    );
    return { ...result, batch, roundTrips: ledger.roundTrips };
  } finally {
    await ledger.close();
  }
}

/** Adds a worker to a batch in the ledger: it leases chunks until intake is over and every chunk is done. */
export function runLedgerWorkerBatch(settings: LedgerRun): Promise<LedgerBatchResult> {
  return workOnLedgerBatch(settings, null, { worker: true });
}

/** Starts a batch in the ledger, takes its input in and works on it (other workers may join with `runBatchWorker`). */
export function runLedgerBatch(
  settings: LedgerRun,
  operation: BatchOperation,
  orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>,
): Promise<LedgerBatchResult> {
  return workOnLedgerBatch(settings, () => orders, { create: { operation, limit: batchSpecOf(operation).limit, declared: settings.total } });
}

/**
 * Resumes a ledger batch from any machine: its input (checked against what the batch took in, before anything is
 * sent), the rest of it taken in when intake had not finished, then the work. Without input only a batch that had
 * taken all its input in.
 */
export function resumeLedgerBatch(settings: LedgerRun, orders: InputOf): Promise<LedgerBatchResult> {
  return workOnLedgerBatch(settings, orders, { resume: true });
}

/**
 * The batch's status, waiting up to `waitMs` while it does not exist yet: woken by its first chunks (its creator's
 * intake notifies them), else looking again every `pollMs` (and at the deadline).
 */
async function statusOnceCreated(ledger: PgLedger, batch: string, waitMs: number, pollMs: number, signal: AbortSignal | undefined): Promise<LedgerStatus> {
  const deadline = performance.now() + waitMs;
  const chunksAdded = new WakeUp();
  let unwatch: (() => Promise<void>) | null = null;
  try {
    for (;;) {
      try {
        return await ledger.status(batch);
      } catch (error) {
        if (!(error instanceof LedgerBatchError) || performance.now() >= deadline || signal?.aborted) throw error;
        // Once listening, it looks again at once: chunks added before the LISTEN took hold are not missed.
        if (unwatch === null) unwatch = await ledger.listen(batch, () => chunksAdded.wake());
        else await chunksAdded.sleep(Math.max(0, Math.min(pollMs, deadline - performance.now())));
      }
    }
  } finally {
    await unwatch?.().catch(() => {});
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
