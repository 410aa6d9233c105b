import { BatchInterruptedError } from '../errors.ts';
import type { BatchResult } from '../settings/batch-settings.ts';
import type { ResolvedBatchSettings } from '../settings/resolve-batch-settings.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { batchSpecOf } from '../operation/batch-operations.ts';
import { countOf, type OrderOutcome, type OutcomeCounts } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { ChunkStore, StoreStatus } from '../store/chunk-store.ts';
import { transportOf } from '../send/batch-transport.ts';
import { pacedTransport } from '../send/paced-transport.ts';
import { Pacer } from './pacer.ts';
import { takeIn } from './take-in.ts';
import { InputDigest, type InputDifference } from '../intake/input-digest.ts';
import { inputMismatch } from '../intake/input-mismatch.ts';
import { SendingRate } from '../progress.ts';
import { WakeUp } from './wake-up.ts';
import { runWorker, type WorkerStats } from './worker-loop.ts';
import { startRunTelemetry, type RunTelemetry } from '../telemetry/run-telemetry.ts';
import { instrumentedTransport } from '../telemetry/instrumented-transport.ts';

/** How often progress is read from a shared store (a store this process alone holds reports it at every step). */
const PROGRESS_EVERY_MS = 1000;

/** What the runner needs on top of the batch's settings: the operation, who it is and how it leases. */
export interface StoreRun {
  readonly operation: BatchOperation;
  readonly holder: string;
  readonly leaseMs: number;
  readonly pollMs: number;
  /** The journal's path (the result's `journal`), or null. */
  readonly journal: string | null;
  /** The ledger's batch id, or null. */
  readonly batch: string | null;
  /**
   * The batch is shared by workers (a ledger): its limits and pace are kept by the store for all of them, and this
   * process's pacer only waits out pauses; else this process's pacer keeps them.
   */
  readonly shared?: boolean;
  /** What this process does to the batch (its span's `gw.batch.role`): starts it, resumes it, or joins it as a worker. */
  readonly role: 'run' | 'resume' | 'worker';
}

/** What a run on a store did: the batch's result and this worker's own figures. */
export interface StoreRunResult extends BatchResult {
  readonly worker: WorkerStats;
}

/**
 * The batch runner, the same over every ChunkStore: this process's intake (when it is given input, read once it holds
 * the intake) and its worker run
 * side by side until intake is over and every chunk is done; a failure of either stops the other. Progress comes from
 * the store; outcomes are reported once committed; a stop by the signal ends in BatchInterruptedError once the
 * requests in flight are settled and committed.
 */
export async function runOnStore(
  store: ChunkStore,
  settings: ResolvedBatchSettings,
  run: StoreRun,
  input: (() => Iterator<PendingOrder> | AsyncIterator<PendingOrder>) | null,
): Promise<StoreRunResult> {
  const telemetry = startRunTelemetry({
    operation: run.operation,
    role: run.role,
    store: run.shared ? 'ledger' : run.journal === null ? 'memory' : 'journal',
    batch: run.batch,
    journal: run.journal,
    holder: run.holder,
    concurrency: settings.concurrency,
    maxRate: settings.maxRate,
    maxInFlight: settings.maxInFlight,
    maxResends: settings.maxResends,
    timeoutMs: settings.timeoutMs,
    leaseMs: run.leaseMs,
  });
  let result: StoreRunResult;
  try {
    result = await telemetry.within(() => runTraced(store, settings, run, input, telemetry));
  } catch (error) {
    telemetry.failed(error);
    throw error;
  }
  telemetry.end({ counts: result.counts, throttled: result.throttled, worker: result.worker });
  return result;
}

/** The run, inside its span (`telemetry`): see `runOnStore`. */
async function runTraced(
  store: ChunkStore,
  settings: ResolvedBatchSettings,
  run: StoreRun,
  input: (() => Iterator<PendingOrder> | AsyncIterator<PendingOrder>) | null,
  telemetry: RunTelemetry,
): Promise<StoreRunResult> {
  const startedAt = Date.now();
  const { operation } = run;
  // Before anything else: the input given is checked against what the store recorded of the batch's own.
  // Each final outcome is counted (by outcome) as it is reported, then handed to the caller's onOutcome.
  const onOutcome = (outcome: OrderOutcome): void => {
    telemetry.outcome(outcome);
    settings.onOutcome?.(outcome);
  };
  const given = input ? await checkedInput(store, settings, input) : null;
  const rate = new SendingRate();
  const pacer = pacerFor(store, settings, run);
  const throttled = (retryAfterMs: number | null): void => telemetry.throttled(retryAfterMs, pacer.pace, pacer.letThroughLastSecond());
  const local = store.localCounts;
  const { report, progress } = progressReporting(store, settings, rate, pacer, startedAt);
  const stop = new AbortController();
  const signal = settings.signal ? AbortSignal.any([settings.signal, stop.signal]) : stop.signal;
  let failure: { error: unknown } | null = null;
  const failed = (error: unknown): void => {
    failure ??= { error };
    stop.abort();
  };
  let worker: WorkerStats | undefined;
  const wakeUp = new WakeUp();
  const unwatch = new AbortController();
  const watching = watchStore(store, pacer, wakeUp, unwatch.signal);
  try {
    const taking = given ? intakeAndCheck(store, { ...settings, onOutcome }, operation, given, signal, wakeUp).catch(failed) : null;
    // Nothing is sent before the input is known to be the batch's own.
    if (!given || (await checkedOrStopped(given.digest.verified, signal))) {
      rate.start(local);
      worker = await runWorker({
        store,
        holder: run.holder,
        operation,
        transport: pacedTransport(instrumentedTransport(transportOf(settings.client), telemetry), pacer, signal, throttled),
        pacer,
        concurrency: settings.concurrency,
        reconcile: settings.reconcile,
        maxResends: settings.maxResends,
        leaseMs: run.leaseMs,
        timeoutMs: settings.timeoutMs,
        sendMarginMs: settings.sendMarginMs,
        pollMs: run.pollMs,
        onOutcome,
        onStep: local && settings.onProgress ? (inFlight) => report(local, inFlight, settings.total) : undefined,
        onStage: settings.onStage,
        signal,
        wakeUp,
        telemetry,
      }).catch((error: unknown) => {
        failed(error);
        return undefined;
      });
    }
    await taking;
  } finally {
    if (progress) clearInterval(progress);
    unwatch.abort();
    await (await watching)?.().catch(() => {});
  }
  if (failure !== null) throw (failure as { error: unknown }).error;
  return finishedRun(store, settings, run, { startedAt, pacer, worker: worker!, report });
}

/** How a run reports progress: `report` now, and (for a shared store, whose counts are the batch's) an interval reading them. */
function progressReporting(store: ChunkStore, settings: ResolvedBatchSettings, rate: SendingRate, pacer: Pacer, startedAt: number) {
  // A shared store's throttles and pace are the batch's (every worker's); else this process's pacer's.
  const report = (counts: OutcomeCounts, inFlight: number, known: number | null, shared?: StoreStatus): void =>
    settings.onProgress?.(
      rate.progress(counts, known, inFlight, startedAt, shared?.throttled == null ? pacer : { throttles: shared.throttled, pace: shared.pace }),
    );
  // A shared store is read now and then; counts this process alone keeps are reported at every step.
  const progress =
    settings.onProgress && store.localCounts === null
      ? setInterval(
          () =>
            void store
              .status()
              .then((s) => report(s.counts, 0, s.total ?? settings.total, s))
              .catch(() => {}),
          PROGRESS_EVERY_MS,
        )
      : null;
  return { report, progress };
}

/** The result of a run that ended without a failure: a stop by its signal is BatchInterruptedError, resumable. */
async function finishedRun(
  store: ChunkStore,
  settings: ResolvedBatchSettings,
  run: StoreRun,
  done: {
    startedAt: number;
    pacer: Pacer;
    worker: WorkerStats;
    report: (counts: OutcomeCounts, inFlight: number, known: number | null, shared?: StoreStatus) => void;
  },
): Promise<StoreRunResult> {
  const status = await store.status();
  if (settings.signal?.aborted) throw new BatchInterruptedError(countOf(status.counts), run.journal, run.batch);
  done.report(status.counts, 0, status.total ?? settings.total, status);
  const outcomes: OrderOutcome[] = [];
  if (settings.keepOutcomes) for await (const outcome of store.outcomes()) outcomes.push(outcome);
  return {
    operation: run.operation,
    counts: status.counts,
    total: countOf(status.counts),
    outcomes,
    durationMs: Date.now() - done.startedAt,
    journal: run.journal,
    throttled: status.throttled ?? done.pacer.throttles,
    worker: done.worker,
  };
}

/**
 * The store's watch for this run: the intake wakes this process's idle slots as it adds chunks; other processes' are
 * woken by the watch. Once the watch is on, the worker looks again: news sent before it was on (the batch over, chunks
 * added) is not missed. A run over before the watch is set up (a short batch, while a ledger still proves its
 * wake-ups) aborts `signal` and does not wait for it. Resolves to how to stop watching (null when it failed).
 */
function watchStore(store: ChunkStore, pacer: Pacer, wakeUp: WakeUp, signal: AbortSignal): Promise<(() => Promise<void>) | null> {
  return store
    .watch(
      () => wakeUp.wake(),
      (ms) => pausedByAnother(store, pacer, ms),
      signal,
    )
    .then((stop) => {
      wakeUp.wake();
      return stop;
    })
    .catch(() => null);
}

/**
 * A throttle of the batch (another worker's, or this one's own, heard back) pauses this process's requests; the first
 * to reach a running worker has it report what the gateway let through of its requests, toward the batch's new pace.
 */
function pausedByAnother(store: ChunkStore, pacer: Pacer, ms: number): void {
  const running = !pacer.paused;
  pacer.pause(ms);
  if (running) void store.reportLetThrough(pacer.letThroughLastSecond()).catch(() => {});
}

/**
 * This process's pacer. A shared store paces every worker together (its slots and permits): this process then only
 * waits out pauses, and passes on the throttles it meets. Else the pacer keeps the batch's limits and its pace.
 */
function pacerFor(store: ChunkStore, settings: ResolvedBatchSettings, run: StoreRun): Pacer {
  if (!run.shared) return new Pacer(settings);
  return new Pacer(
    { maxRate: null, maxInFlight: null, maxThrottleWaitMs: settings.maxThrottleWaitMs },
    { learns: false, onThrottle: (ms, letThrough) => void store.throttled(ms, letThrough).catch(() => {}) },
  );
}

/** The input as this run reads it: the iterator, its identity checked against the store's record, and the error for a difference. */
interface CheckedInput {
  readonly orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>;
  readonly digest: InputDigest;
  readonly mismatch: (difference: InputDifference) => Promise<Error>;
}

/**
 * The input given to a run or resume, to be checked against what the store recorded of the batch's own: refused at
 * once when its announced number of orders (`total`) is not the batch's; otherwise read and checked as it is taken in.
 */
async function checkedInput(
  store: ChunkStore,
  settings: ResolvedBatchSettings,
  input: () => Iterator<PendingOrder> | AsyncIterator<PendingOrder>,
): Promise<CheckedInput> {
  const recorded = await store.recordedInput();
  const mismatch = (difference: InputDifference): Promise<Error> => inputMismatch(store.name, difference, recorded);
  const count = settings.total;
  if (count !== null && recorded.total !== null && count !== recorded.total) {
    throw await mismatch(count < recorded.total ? { kind: 'shorter', count, expected: recorded.total } : { kind: 'longer', expected: recorded.total });
  }
  if (count !== null && recorded.total === null && recorded.declared !== null && count !== recorded.declared) {
    throw await mismatch({ kind: 'declared', count, expected: recorded.declared });
  }
  return { orders: input(), digest: new InputDigest(recorded), mismatch };
}

/**
 * This run's intake, then, when the intake did not read the input to where the store's record ends (the batch had
 * taken all its input in, or another process holds its intake), the rest of the input read only to check it.
 */
async function intakeAndCheck(
  store: ChunkStore,
  settings: ResolvedBatchSettings,
  operation: BatchOperation,
  given: CheckedInput,
  signal: AbortSignal,
  wakeUp: WakeUp,
): Promise<void> {
  const { orders, digest, mismatch } = given;
  const limit = batchSpecOf(operation).limit;
  await store.intake(
    (start) => takeIn({ store, operation, limit, orders, start, digest, mismatch, onOutcome: settings.onOutcome, signal, onChunk: () => wakeUp.wakeOne() }),
    signal,
  );
  if (!digest.settled && !signal.aborted) {
    for (let next = await orders.next(); !next.done; next = await orders.next()) {
      const difference = digest.take(next.value);
      if (difference) throw await mismatch(difference);
      if (signal.aborted) return;
    }
    const difference = digest.end();
    if (difference) throw await mismatch(difference);
  }
  wakeUp.wake();
}

/** True once the input is found the batch's own; false when it is not (the intake throws why) or the run stops first. */
function checkedOrStopped(verified: Promise<boolean>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stopped = (): void => resolve(false);
    signal.addEventListener('abort', stopped, { once: true });
    void verified.then(resolve).finally(() => signal.removeEventListener('abort', stopped));
  });
}
