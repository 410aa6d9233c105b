import type { BatchClient } from '../operation/batch-records.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome, OutcomeCounts } from '../outcome.ts';
import type { BatchProgress } from '../progress.ts';
import type { Reconciler } from '../reconciler.ts';

/** Points a test can stop the process at (the crash tests kill the batch there). */
export type BatchStage = 'intent-written' | 'answered';

/** Settings shared by `runBatch` and `resumeBatch`. */
export interface BatchSettings {
  readonly client: BatchClient;
  readonly operation: BatchOperation;
  /** Requests in flight at once (a sliding window). Default 4 (UNKNOWNS U50). */
  readonly concurrency?: number;
  /** Each request's time limit in ms, passed with every call (instead of the client's own). Default 30,000. */
  readonly timeoutMs?: number;
  /**
   * The send margin (ms, default 5,000): orders of a request that timed out are queried this long after the call gave
   * up (a request the gateway is still processing lands first); with a ledger, a leased chunk is sent only while its
   * lease has at least this long left when the request is written, and a lease must outlast `timeoutMs + sendMarginMs`.
   */
  readonly sendMarginMs?: number;
  readonly onProgress?: (progress: BatchProgress) => void;
  readonly onOutcome?: (outcome: OrderOutcome) => void;
  /** Reads a queried order after an unanswered request. Default: cannot tell, so `unknown` (UNKNOWNS U28). */
  readonly reconcile?: Reconciler;
  /** Keep every outcome in memory for the result (default true); false for huge batches read back from the journal. */
  readonly keepOutcomes?: boolean;
  /** How many times an order found not applied after an unanswered request is sent again. Default 2. */
  readonly maxResends?: number;
  /** How many orders the input holds, for progress and ETA when the input is a stream (arrays are counted). */
  readonly total?: number;
  /** Stops the batch cleanly: no new request starts, those in flight finish and are journaled, then it throws BatchInterruptedError. */
  readonly signal?: AbortSignal;
}

/** Not public: the crash tests' hook, called at each stage of each chunk (they kill the process there). */
export interface StageHook {
  readonly onStage?: (stage: BatchStage, chunk: number) => void | Promise<void>;
}

/** What a finished batch reports. */
export interface BatchResult {
  readonly operation: BatchOperation;
  readonly counts: OutcomeCounts;
  readonly total: number;
  /** Every outcome in input order (empty when `keepOutcomes` is false: read the journal instead). */
  readonly outcomes: OrderOutcome[];
  readonly durationMs: number;
  readonly journal: string | null;
  /** Requests the gateway throttled (429, or 503 with Retry-After), each sent again after its wait. */
  readonly throttled: number;
}
