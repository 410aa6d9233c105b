import type { BatchClient, BatchOperation } from './batch-operation.ts';
import { BatchInterruptedError } from './batch-interrupted-error.ts';
import { BatchLedger } from './batch-ledger.ts';
import { OrderIntake, type Refusal } from './intake/order-intake.ts';
import { batchSpecOf } from './operation/batch-operations.ts';
import type { OrderOutcome } from './outcome.ts';
import { progressOf, type BatchProgress } from './progress.ts';
import { QueryReconciliation, type Reconciled } from './reconcile/reconcile-by-query.ts';
import { sendChunk } from './send/send-chunk.ts';
import { cannotTellReconciler, type Reconciler } from './reconciler.ts';
import type { PendingOrder } from './send/pending-order.ts';
import { ChunkRecorder } from './store/chunk-recorder.ts';
import type { LedgerStore } from './store/ledger-store.ts';
import { ChunkQueue } from './window/chunk-queue.ts';
import { BATCH_DEFAULTS, sendTiming } from './batch-defaults.ts';
import { SlidingWindow } from './window/sliding-window.ts';

export type { PendingOrder } from './send/pending-order.ts';

/** A chunk numbered and on its way to the store: its intent is durable once `written` resolves. */
interface PreparedChunk {
  readonly id: number;
  readonly orders: PendingOrder[];
  readonly written: Promise<void>;
}

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
  readonly counts: BatchLedger['counts'];
  readonly total: number;
  /** Every outcome in input order (empty when `keepOutcomes` is false: read the journal instead). */
  readonly outcomes: OrderOutcome[];
  readonly durationMs: number;
  readonly journal: string | null;
}

/**
 * Chunks whose intent is written ahead, per window slot. A sync takes about as long as a few requests of a fast
 * gateway (1-3 ms on the machine bench/batch ran on, against ~0.4 ms per request at concurrency 8); four per slot
 * kept the window from waiting for one there, where one per slot did not. A crash leaves at most that many more
 * chunks to query on resume.
 */
const INTENTS_AHEAD_PER_SLOT = 4;

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The runner behind `runBatch` and `resumeBatch`. It holds the batch's parts together: intake (OrderIntake), the
 * queue chunks are cut from (ChunkQueue), the window (SlidingWindow), the call and its answers (callOperation,
 * matchAnswers, classifyFailure), reconciliation by query (QueryReconciliation) and the store (ChunkRecorder).
 */
export class BatchRun {
  readonly ledger: BatchLedger;
  readonly #settings: BatchSettings & StageHook;
  readonly #limit: number;
  readonly #intake: OrderIntake;
  readonly #queue: ChunkQueue;
  readonly #record: ChunkRecorder;
  readonly #reconciliation: QueryReconciliation;
  #pendingRejections: OrderOutcome[] = [];
  #chunk: number;
  #inFlight = 0;
  #total: number | null = null;
  readonly #startedAt = Date.now();

  constructor(settings: BatchSettings & StageHook, store: LedgerStore | null, firstChunk = 1) {
    this.#settings = settings;
    this.#limit = batchSpecOf(settings.operation).limit;
    this.#intake = new OrderIntake(settings.operation);
    this.#queue = new ChunkQueue(this.#limit);
    this.#record = new ChunkRecorder(store);
    this.#chunk = firstChunk;
    const reconcile = settings.reconcile ?? cannotTellReconciler;
    this.#reconciliation = new QueryReconciliation({ client: settings.client, operation: settings.operation, reconcile, maxResends: settings.maxResends ?? BATCH_DEFAULTS.maxResends, quietMs: sendTiming(settings).sendMarginMs });
    this.ledger = new BatchLedger({ keepOutcomes: settings.keepOutcomes ?? true, onOutcome: settings.onOutcome });
  }

  /** The most orders one request carries (from the spec's table). */
  get limit(): number {
    return this.#limit;
  }

  /** Sets the number of input orders, when known, for progress and ETA. */
  setTotal(total: number | null): void {
    this.#total = total;
  }

  /** Registers an input order for duplicate detection; returns the index of the earlier identical one, if any. */
  remember(pending: PendingOrder): number | undefined {
    return this.#intake.remember(pending);
  }

  /**
   * Takes one input order in: refused at once when it carries card data or is a duplicate, otherwise queued; its
   * members are checked when its chunk is cut (`#fillValid`), before anything is journaled or sent. Returns true if queued.
   */
  intake(pending: PendingOrder): boolean {
    const refusal = this.#intake.admission(pending);
    if (refusal === null) {
      this.#queue.push(pending);
      return true;
    }
    this.#reject(pending, refusal);
    return false;
  }

  #reject(pending: PendingOrder, refusal: Refusal): void {
    const outcome: OrderOutcome = { index: pending.index, kind: 'rejected', order: pending.order, reason: refusal.reason, problems: refusal.problems };
    this.ledger.decide(outcome);
    this.#pendingRejections.push(outcome);
  }

  /**
   * Fills `chunk` from the queue with valid orders: the orders taken are checked against the spec as one request,
   * the invalid ones refused (each with every problem of its own), until the chunk is full or the queue gives no
   * more. Returns whether it took any order from the queue.
   */
  #fillValid(chunk: PendingOrder[]): boolean {
    let took = false;
    while (chunk.length < this.#limit && this.#queue.size > 0) {
      const checked = chunk.length;
      this.#queue.next(chunk);
      if (chunk.length === checked) break;
      took = true;
      const fresh = chunk.splice(checked);
      const refusals = this.#intake.chunkRefusals(fresh);
      fresh.forEach((pending, i) => (refusals[i] ? this.#reject(pending, refusals[i]) : chunk.push(pending)));
    }
    return took;
  }

  /** Queues orders known not to have been applied, to be sent again. */
  requeue(orders: PendingOrder[]): void {
    this.#queue.requeue(orders);
  }

  /** How many queued orders wait for a chunk. */
  get queued(): number {
    return this.#queue.size;
  }

  /**
   * Sends everything queued and everything `source` yields, `concurrency` requests at a time as a sliding window: a
   * new request starts as soon as one finishes, and input is read only as fast as requests go out.
   */
  async drain(source: Iterator<PendingOrder> | AsyncIterator<PendingOrder> | null): Promise<void> {
    // checkBatchSettings has made sure it is a whole number of at least 1.
    const concurrency = this.#settings.concurrency ?? BATCH_DEFAULTS.concurrency;
    let exhausted = source === null;
    const window = new SlidingWindow<PreparedChunk>({
      concurrency,
      // With a store, intents are written ahead while the window's requests are out (see INTENTS_AHEAD_PER_SLOT).
      lookahead: this.#record.store ? concurrency * INTENTS_AHEAD_PER_SLOT : 0,
      signal: this.#settings.signal,
      cut: async () => {
        const orders: PendingOrder[] = [];
        // Read input until the chunk is full of valid orders or nothing more comes (invalid orders refused on the way).
        do {
          // Keep enough queued to fill a chunk; read no further ahead. A synchronous source is read without a promise per order.
          while (!exhausted && this.#queue.hungry) {
            const step = source!.next();
            const next = isPromise(step) ? await step : step;
            if (next.done) exhausted = true;
            else this.intake(next.value);
          }
        } while (this.#fillValid(orders) && orders.length < this.#limit);
        return orders.length === 0 ? null : this.#prepare(orders);
      },
      more: () => this.#queue.size > 0 || !exhausted,
      send: (chunk) => this.#send(chunk),
      flush: () => this.#flushRejections(),
      unsent: (chunks) => this.#record.unsent(chunks),
      interrupted: () => new BatchInterruptedError(this.ledger.size, this.#record.store?.path ?? null),
    });
    await window.run();
    await this.#flushRejections();
    this.#emitProgress();
  }

  async #flushRejections(): Promise<void> {
    if (this.#pendingRejections.length === 0) return;
    const outcomes = this.#pendingRejections;
    this.#pendingRejections = [];
    await this.#record.rejections(outcomes);
    this.#emitProgress();
  }

  #emitProgress(): void {
    this.#settings.onProgress?.(progressOf({ counts: this.ledger.counts, total: this.#total, inFlight: this.#inFlight, startedAt: this.#startedAt, now: Date.now() }));
  }

  /** Numbers a chunk and starts writing its intent (the chunk is sent only once that is durable). */
  #prepare(orders: PendingOrder[]): PreparedChunk {
    const id = this.#chunk++;
    const written = this.#record.intent(id, orders);
    // A failed intent write is seen when the chunk is sent (or when the batch stops with it unsent).
    written.catch(() => {});
    return { id, orders, written };
  }

  /**
   * Sends one chunk and settles its orders; resolves, once the answer is in, with the commit of their outcomes (in
   * an object: an async function would wait for a promise it returns).
   */
  async #send(prepared: PreparedChunk): Promise<{ readonly committed: Promise<void> }> {
    const { id, orders: chunk } = prepared;
    const { operation, client } = this.#settings;
    this.#inFlight += 1;
    try {
      await prepared.written;
      await this.#settings.onStage?.('intent-written', id);
      const sent = await sendChunk(client, operation, chunk, { timeoutMs: sendTiming(this.#settings).timeoutMs });
      // No guard is passed, so a send is never refused before it is written.
      if (sent.unsent) throw new Error('a journal batch send was refused before it was written');
      const { outcomes, inDoubt } = sent;
      // The call is over and may have reached the gateway: if a crash comes before the outcomes (while the query
      // below runs), this entry tells resume the send happened and counts against maxResends.
      if (inDoubt.length > 0) this.#record.sent(id);
      await this.#settings.onStage?.('answered', id);
      const reconciled = inDoubt.length > 0 ? await this.reconcile(inDoubt, true, sent.timedOut) : { outcomes: [], resend: [] };
      for (const outcome of reconciled.outcomes) outcomes.push(outcome);
      return { committed: this.commit(id, outcomes, reconciled.resend) };
    } finally {
      this.#inFlight -= 1;
    }
  }

  /**
   * Records a chunk's outcomes (and the orders it will send again) in the store, then in the ledger. `sent` false:
   * the chunk's send was not proven (see reconcile), so its resends are recorded as not counted.
   */
  async commit(chunk: number, outcomes: OrderOutcome[], resend: PendingOrder[], sent = true): Promise<void> {
    await this.#record.outcomes(chunk, outcomes, resend, sent);
    for (const outcome of outcomes) this.ledger.decide(outcome);
    this.requeue(resend);
    this.#emitProgress();
  }

  /** Settles orders whose request got no trustworthy answer by querying them (never by sending blindly again). */
  reconcile(orders: PendingOrder[], sent = true, quiet = false): Promise<Reconciled> {
    return this.#reconciliation.settle(orders, sent, quiet);
  }

  /** Writes the final entry and reports the result. */
  async finish(): Promise<BatchResult> {
    await this.#record.end();
    return {
      operation: this.#settings.operation,
      counts: { ...this.ledger.counts },
      total: this.ledger.size,
      outcomes: this.ledger.outcomes(),
      durationMs: Date.now() - this.#startedAt,
      journal: this.#record.store?.path ?? null,
    };
  }
}
