import { RecordValidator, operations, type BatchSpec, type ValidationProblem } from '@gw/types';
import type { BatchClient, BatchOperation } from './batch-operation.ts';
import type { BatchJournal } from './batch-journal.ts';
import { BatchInterruptedError } from './batch-interrupted-error.ts';
import { BatchLedger } from './batch-ledger.ts';
import { DuplicateIndex } from './order-key.ts';
import type { OrderOutcome } from './outcome.ts';
import { progressOf, type BatchProgress } from './progress.ts';
import { provenNotSent } from './proven-not-sent.ts';
import { cannotTellReconciler, type Reconciler } from './reconciler.ts';

type Order = Record<string, unknown>;

/** One input order on its way: where it stood in the input and how many times it was sent after a reconciliation. */
export interface PendingOrder {
  readonly index: number;
  readonly order: Order;
  readonly resends: number;
  /**
   * How many of its sends a stop or crash cut off with nothing to prove they left (an intent with no `sent` line and
   * no outcomes, which a query then showed not applied): they do not count against `maxResends`. Absent when 0.
   */
  readonly interrupted?: number;
  /** Card fields the input order carried, taken out before anything saw them: the order is refused at intake. */
  readonly cardFields?: readonly string[];
}

/** A chunk numbered and on its way to the journal: its intent is durable once `written` resolves. */
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
  /** For tests: called at each stage of each chunk. */
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

const RECONCILE_QUERY_LIMIT = operations.query.batch.limit;
/**
 * Chunks whose intent is written ahead, per window slot. A sync takes about as long as a few requests of a fast
 * gateway (1-3 ms on the machine bench/batch ran on, against ~0.4 ms per request at concurrency 8); four per slot
 * kept the window from waiting for one there, where one per slot did not. A crash leaves at most that many more
 * chunks to query on resume.
 */
const INTENTS_AHEAD_PER_SLOT = 4;
const RECONCILE_QUERY_TRIES = 3;

function codeOf(error: unknown): string {
  return typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** "2 sends", with the sends a crash cut off before they could be shown to have left, if any. */
function sendsOf(pending: PendingOrder): string {
  const sends = pending.resends + 1;
  const cut = pending.interrupted ?? 0;
  return `${sends} send${sends === 1 ? '' : 's'}${cut > 0 ? ` (and ${cut} more cut off by a crash or kill before ${cut === 1 ? 'it' : 'they'} could go out, not counted)` : ''}`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The runner behind `runBatch` and `resumeBatch`: chunking, the sliding window, matching, reconciliation. */
export class BatchRun {
  readonly ledger: BatchLedger;
  readonly #settings: BatchSettings;
  readonly #spec: BatchSpec;
  readonly #journal: BatchJournal | null;
  readonly #validator = new RecordValidator();
  readonly #seen: DuplicateIndex;
  readonly #committing = new Set<Promise<void>>();
  readonly #retry: PendingOrder[] = [];
  readonly #deferred: PendingOrder[] = [];
  readonly #reconcile: Reconciler;
  #pendingRejections: OrderOutcome[] = [];
  #chunk: number;
  #inFlight = 0;
  #total: number | null = null;
  readonly #startedAt = Date.now();

  constructor(settings: BatchSettings, journal: BatchJournal | null, firstChunk = 1) {
    this.#settings = settings;
    const spec = operations[settings.operation].batch;
    if (!spec) throw new Error(`${settings.operation} is not a batch operation`);
    this.#spec = spec;
    this.#seen = new DuplicateIndex(settings.operation);
    this.#journal = journal;
    this.#chunk = firstChunk;
    this.#reconcile = settings.reconcile ?? cannotTellReconciler;
    this.ledger = new BatchLedger({ keepOutcomes: settings.keepOutcomes ?? true, onOutcome: settings.onOutcome });
  }

  /** The most orders one request carries (from the spec's table). */
  get limit(): number {
    return this.#spec.limit;
  }

  /** Sets the number of input orders, when known, for progress and ETA. */
  setTotal(total: number | null): void {
    this.#total = total;
  }

  /** Registers an input order for duplicate detection; returns the index of the earlier identical one, if any. */
  remember(pending: PendingOrder): number | undefined {
    return this.#seen.remember(pending.order, pending.index);
  }

  /** Takes one input order in: refused at once when invalid or a duplicate, otherwise queued. Returns true if queued. */
  intake(pending: PendingOrder): boolean {
    if (pending.cardFields) {
      const problems = pending.cardFields.map((field) => ({
        pointer: `/${field.split(' ')[0]!.replaceAll('.', '/')}`,
        field,
        keyword: 'cardData',
        message: `is card data, which a ${this.#settings.operation} element never carries; it was not sent or journaled`,
      }));
      this.#reject(pending, `carries card data (${pending.cardFields.join(', ')}): refused, and its card fields were dropped unread`, problems);
      return false;
    }
    const earlier = this.remember(pending);
    if (earlier !== undefined) {
      this.#reject(pending, `duplicate of input order #${earlier}: not sent twice`, []);
      return false;
    }
    const problems = this.#problems(pending.order);
    if (problems.length > 0) {
      this.#reject(pending, `${problems.length} problem(s): ${problems.map((p) => `${p.field || '(order)'} ${p.message}`).join('; ')}`, problems);
      return false;
    }
    this.#deferred.push(pending);
    return true;
  }

  /** Queues orders known not to have been applied, to be sent again. */
  requeue(orders: PendingOrder[]): void {
    this.#retry.push(...orders);
  }

  #problems(order: Order): ValidationProblem[] {
    if (this.#settings.operation === 'query') {
      const problems = this.#validator.requestProblems('query', { order_no: order.order_no, transaction_id: order.transaction_id });
      if (!text(order.order_no) && !text(order.transaction_id)) {
        problems.push({ pointer: '', field: '', keyword: 'required', message: 'names neither order_no nor transaction_id' });
      }
      return problems;
    }
    const prefix = `${this.#spec.array}[0]`;
    return this.#validator.requestProblems(this.#settings.operation, { [this.#spec.array]: [order] }).map((p) => ({
      ...p,
      pointer: p.pointer.replace(`/${this.#spec.array}/0`, ''),
      field: p.field.startsWith(`${prefix}.`) ? p.field.slice(prefix.length + 1) : p.field === prefix ? '' : p.field,
    }));
  }

  #reject(pending: PendingOrder, reason: string, problems: readonly ValidationProblem[]): void {
    const outcome: OrderOutcome = { index: pending.index, kind: 'rejected', order: pending.order, reason, problems };
    this.ledger.decide(outcome);
    this.#pendingRejections.push(outcome);
  }

  /** The next chunk: resends first, then queued input, at most `limit`, never two elements of one order (UNKNOWNS U37). */
  #nextChunk(): PendingOrder[] {
    const chunk: PendingOrder[] = [];
    // The orders already in the chunk, by transaction_id, and by order_no for those named by order_no alone.
    const ids = new Set<string>();
    const nos = new Set<string>();
    for (const queue of [this.#retry, this.#deferred]) {
      // One pass, then one splice: orders passed over (another element of an order already in the chunk) keep their place.
      const passedOver: PendingOrder[] = [];
      let i = 0;
      for (; i < queue.length && chunk.length < this.#spec.limit; i++) {
        const pending = queue[i]!;
        const id = text(pending.order.transaction_id);
        const named = id ? ids : nos;
        const name = id || text(pending.order.order_no);
        if (named.has(name)) {
          passedOver.push(pending);
          continue;
        }
        named.add(name);
        chunk.push(pending);
      }
      if (i > 0) queue.splice(0, i, ...passedOver);
    }
    return chunk;
  }

  /** How many queued orders wait for a chunk. */
  get queued(): number {
    return this.#retry.length + this.#deferred.length;
  }

  /**
   * Sends everything queued and everything `source` yields, `concurrency` requests at a time as a sliding window: a
   * new request starts as soon as one finishes, and input is read only as fast as requests go out.
   */
  async drain(source: Iterator<PendingOrder> | AsyncIterator<PendingOrder> | null): Promise<void> {
    // checkBatchSettings has made sure it is a whole number of at least 1.
    const concurrency = this.#settings.concurrency ?? 4;
    const running = new Set<Promise<void>>();
    const committing = this.#committing;
    let exhausted = source === null;
    let failure: unknown = null;
    const fill = async (): Promise<void> => {
      // Keep enough queued to fill a chunk; read no further ahead.
      while (!exhausted && this.#deferred.length < this.#spec.limit) {
        // A synchronous source (an array) is read without a promise per order.
        const step = source!.next();
        const next = isPromise(step) ? await step : step;
        if (next.done) {
          exhausted = true;
          break;
        }
        this.intake(next.value);
      }
    };
    const stopped = (): boolean => failure !== null || this.#settings.signal?.aborted === true;
    // Chunks are cut (reading the source) and their intents written by one producer at a time, into `ahead`: enough
    // for the free window slots and, with a journal, INTENTS_AHEAD_PER_SLOT more per slot, whose intents go to disk
    // while the window's requests are out, so a freed slot sends a chunk whose intent is already synced. The loop
    // below only sends from `ahead`: a source that pauses never holds back chunks already cut. An intent written
    // ahead and never sent is harmless: `resumeBatch` settles it by query like any unanswered chunk (after a clean
    // stop it is journaled as unsent and sent without asking: see #recordUnsent).
    const lookahead = this.#journal ? concurrency * INTENTS_AHEAD_PER_SLOT : 0;
    const ahead: PreparedChunk[] = [];
    let producing: Promise<void> | null = null;
    // The loop sleeps until something it waits for happens: a request answered, outcomes committed, a chunk cut
    // that a free slot can take, the producer done. An event while it is awake is kept for its next sleep.
    let wake: (() => void) | null = null;
    let missed = false;
    const notify = (): void => {
      if (wake === null) {
        missed = true;
        return;
      }
      const woken = wake;
      wake = null;
      woken();
    };
    const nextEvent = (): Promise<void> | null => {
      if (missed) {
        missed = false;
        return null;
      }
      return new Promise<void>((resolve) => (wake = resolve));
    };
    const wanted = (): boolean => ahead.length < concurrency - running.size + lookahead;
    const produce = async (): Promise<void> => {
      try {
        while (!stopped() && wanted()) {
          await fill();
          const orders = this.#nextChunk();
          if (orders.length === 0) break;
          const prepared = this.#prepare(orders);
          // A failed intent write is seen when the chunk is sent (or when the batch stops with it unsent).
          prepared.written.catch(() => {});
          ahead.push(prepared);
          if (running.size < concurrency) notify();
        }
      } catch (error) {
        // The source failed (a malformed CSV line, a broken stream): the batch stops once the window is empty.
        failure ??= error;
      } finally {
        producing = null;
        notify();
      }
    };
    const send = (prepared: PreparedChunk): void => {
      const task: Promise<void> = this.#send(prepared)
        .then(({ committed }) => {
          // The window slot is free once the answer is in; the chunk's outcomes reach the journal (and then the
          // ledger) in the background, sharing a sync with the next chunks' intents.
          const tracked: Promise<void> = committed
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => {
              committing.delete(tracked);
              notify();
            });
          committing.add(tracked);
        })
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => {
          running.delete(task);
          notify();
        });
      running.add(task);
    };
    for (;;) {
      if (!stopped()) {
        while (running.size < concurrency && ahead.length > 0) send(ahead.shift()!);
        // The producer adds chunks only after its first await: they are sent when it wakes the loop.
        if (producing === null && wanted() && (this.queued > 0 || !exhausted)) producing = produce();
      }
      // A journal that cannot be written stops the batch like any failure: once the requests in flight are answered.
      await this.#flushRejections().catch((error: unknown) => {
        failure ??= error;
      });
      if (running.size === 0 && producing === null && committing.size === 0) {
        if (stopped()) {
          await this.#recordUnsent(ahead.splice(0));
          if (failure !== null) throw failure;
          throw new BatchInterruptedError(this.ledger.size, this.#journal?.path ?? null);
        }
        // Nothing in flight, nothing being cut, nothing on its way to the journal (which may send orders again).
        if (ahead.length === 0 && this.queued === 0 && exhausted) break;
        continue;
      }
      const event = nextEvent();
      if (event) await event;
    }
    await this.#flushRejections();
    this.#emitProgress();
  }

  async #flushRejections(): Promise<void> {
    if (this.#pendingRejections.length === 0) return;
    const outcomes = this.#pendingRejections;
    this.#pendingRejections = [];
    await this.#journal?.append({ type: 'outcomes', chunk: null, outcomes, at: new Date().toISOString() });
    this.#emitProgress();
  }

  #emitProgress(): void {
    this.#settings.onProgress?.(progressOf({ counts: this.ledger.counts, total: this.#total, inFlight: this.#inFlight, startedAt: this.#startedAt, now: Date.now() }));
  }

  /**
   * Sends one chunk and settles its orders; resolves, once the answer is in, with the commit of their outcomes (in
   * an object: an async function would wait for a promise it returns).
   */
  async #send(prepared: PreparedChunk): Promise<{ readonly committed: Promise<void> }> {
    const { id, orders: chunk } = prepared;
    this.#inFlight += 1;
    try {
      await prepared.written;
      await this.#settings.onStage?.('intent-written', id);
      let response: Record<string, unknown> | undefined;
      let error: unknown;
      try {
        response = (await this.#call(chunk.map((p) => p.order))) as Record<string, unknown>;
      } catch (e) {
        error = e;
      }
      const settled = response ? this.#match(chunk, response) : this.#classifyFailure(chunk, error);
      const inDoubt = settled.filter((s): s is { pending: PendingOrder; outcome: null } => s.outcome === null).map((s) => s.pending);
      // The call is over and may have reached the gateway: if a crash comes before the outcomes line (while the query
      // below runs), this line tells resume the send happened and counts against maxResends. Not waited for: without
      // it a send is simply not counted.
      if (inDoubt.length > 0) this.#journal?.append({ type: 'sent', chunk: id, at: new Date().toISOString() }).catch(() => {});
      await this.#settings.onStage?.('answered', id);
      const reconciled = inDoubt.length > 0 ? await this.reconcile(inDoubt) : { outcomes: [], resend: [] };
      return { committed: this.commit(id, [...settled.flatMap((s) => (s.outcome ? [s.outcome] : [])), ...reconciled.outcomes], reconciled.resend) };
    } finally {
      this.#inFlight -= 1;
    }
  }

  /** Numbers a chunk and starts writing its intent to the journal (the chunk is sent only once that is on disk). */
  #prepare(orders: PendingOrder[]): PreparedChunk {
    const id = this.#chunk++;
    const written = this.#journal
      ? this.#journal.append({
          type: 'intent',
          chunk: id,
          orders: orders.map(({ index, order, resends, interrupted }) => ({
            index,
            order,
            ...(resends > 0 ? { resends } : {}),
            ...(interrupted ? { interrupted } : {}),
          })),
          at: new Date().toISOString(),
        })
      : Promise.resolve();
    return { id, orders, written };
  }

  /**
   * Journals chunks whose intent was written ahead but which were never sent (the batch stopped first), so a resume
   * sends them without querying. Best effort: if the journal fails, resume finds plain unanswered intents and queries.
   */
  async #recordUnsent(chunks: PreparedChunk[]): Promise<void> {
    if (!this.#journal || chunks.length === 0) return;
    const at = new Date().toISOString();
    try {
      await Promise.all(chunks.map((c) => c.written));
      await this.#journal.append(...chunks.map((c) => ({ type: 'outcomes' as const, chunk: c.id, outcomes: [], unsent: c.orders.map((p) => p.index), at })));
    } catch {
      // Unwritten here means unanswered there: still safe.
    }
  }

  /**
   * Writes a chunk's outcomes (and the orders it will send again) to the journal, then records them. `sent` false:
   * the chunk's send was not proven (see reconcile), so its resends are journaled as not counted.
   */
  async commit(chunk: number, outcomes: OrderOutcome[], resend: PendingOrder[], sent = true): Promise<void> {
    if (this.#journal) {
      // The chunk's intent holds each order: the outcomes leave it out, a good part of what the journal writes.
      const journaled = outcomes.map(({ order: _order, ...rest }) => rest);
      const indexes = resend.map((p) => p.index);
      await this.#journal.append({ type: 'outcomes', chunk, outcomes: journaled, resend: indexes, ...(sent || indexes.length === 0 ? {} : { notCounted: indexes }), at: new Date().toISOString() });
    }
    for (const outcome of outcomes) this.ledger.decide(outcome);
    this.requeue(resend);
    this.#emitProgress();
  }

  #call(orders: Order[]): Promise<unknown> {
    const client = this.#settings.client;
    switch (this.#settings.operation) {
      case 'capture':
        return client.capture({ capture_orders: orders });
      case 'cancel':
        return client.cancel({ cancel_orders: orders });
      case 'review':
        return client.review({ review_orders: orders });
      case 'refund':
        return client.refund({ refund_orders: orders });
      case 'query':
        return client.query(this.#selection(orders));
    }
  }

  #selection(orders: Order[]): { order_no?: string; transaction_id?: string } {
    const separator = operations.query.batch.separator ?? ',';
    const ids = orders.filter((o) => text(o.transaction_id)).map((o) => text(o.transaction_id));
    const nos = orders.filter((o) => !text(o.transaction_id)).map((o) => text(o.order_no));
    return { ...(nos.length ? { order_no: nos.join(separator) } : {}), ...(ids.length ? { transaction_id: ids.join(separator) } : {}) };
  }

  /** Matches result elements to inputs by the echoed transaction_id / order_no, never by position (UNKNOWNS U37). */
  #match(chunk: PendingOrder[], response: Record<string, unknown>): { pending: PendingOrder; outcome: OrderOutcome | null }[] {
    const elements = Array.isArray(response[this.#spec.responseArray]) ? (response[this.#spec.responseArray] as Order[]) : [];
    // Most answers list their elements in the request's order: the element at the same position is taken when it
    // echoes the order's own id, and the maps by id are built only for the first one that does not.
    let byId: Map<string, Order> | null = null;
    let byNo: Map<string, Order> | null = null;
    const lookUp = (id: string, no: string): Order | undefined => {
      if (byId === null || byNo === null) {
        byId = new Map();
        byNo = new Map();
        for (const element of elements) {
          if (element === null || typeof element !== 'object') continue;
          if (text(element.transaction_id)) byId.set(text(element.transaction_id), element);
          if (text(element.order_no)) byNo.set(text(element.order_no), element);
        }
      }
      return (id ? byId.get(id) : undefined) ?? (id && this.#settings.operation !== 'query' ? undefined : byNo.get(no));
    };
    return chunk.map((pending, position) => {
      const id = text(pending.order.transaction_id);
      const no = text(pending.order.order_no);
      const same = elements[position];
      const echoed = typeof same === 'object' && same !== null && (id ? text(same.transaction_id) === id : no !== '' && text(same.order_no) === no);
      const element = echoed ? same : lookUp(id, no);
      if (!element) {
        if (this.#settings.operation === 'query') return { pending, outcome: { index: pending.index, kind: 'failed', order: pending.order, reason: 'not in the query answer' } };
        return { pending, outcome: null };
      }
      const status = text(element[this.#spec.statusField]);
      if (status === '1') return { pending, outcome: { index: pending.index, kind: 'succeeded', order: pending.order, result: element } };
      const reason = text(element[this.#spec.errorField ?? 'error_message']) || text(element.error_message) || `${this.#spec.statusField} ${status || '(empty)'}`;
      return { pending, outcome: { index: pending.index, kind: 'failed', order: pending.order, result: element, reason } };
    });
  }

  /**
   * The outcomes of a chunk whose call threw. Only an error that proves the request never left makes its orders
   * `failed` ("not sent") or `rejected`; a whole-request refusal the gateway answered makes them `failed`; everything
   * else, whatever threw, leaves them in doubt (null), to be settled by query.
   */
  #classifyFailure(chunk: PendingOrder[], error: unknown): { pending: PendingOrder; outcome: OrderOutcome | null }[] {
    const code = codeOf(error);
    const details = (error as { details?: { outcome?: unknown; problems?: ValidationProblem[] } })?.details;
    const all = (make: (p: PendingOrder) => OrderOutcome | null) => chunk.map((pending) => ({ pending, outcome: make(pending) }));
    const failed = (reason: string) => all((p) => ({ index: p.index, kind: 'failed', order: p.order, reason }));
    // A query moves no money: a failed one is failed, and safe to run again.
    if (this.#settings.operation === 'query') return failed(`query failed: ${messageOf(error)}`);
    if (code === 'GW_GATEWAY' && details?.outcome !== 'unknown') return failed(`refused as a whole: ${messageOf(error)}`);
    if (!provenNotSent(error)) return all(() => null);
    if (code === 'GW_VALIDATION') {
      return all((p) => ({ index: p.index, kind: 'rejected', order: p.order, reason: messageOf(error), problems: details?.problems ?? [] }));
    }
    return failed(`not sent, safe to send again: ${messageOf(error)}`);
  }

  /**
   * Settles orders whose request got no trustworthy answer by querying them (never by sending blindly again). `sent`
   * false: nothing proves the request left (a crash right after its intent): one found not applied is sent again
   * without counting against `maxResends`.
   */
  async reconcile(orders: PendingOrder[], sent = true): Promise<{ outcomes: OrderOutcome[]; resend: PendingOrder[] }> {
    const operation = this.#settings.operation as Exclude<BatchOperation, 'query'>;
    const how = (o: Order) =>
      `query order_no ${text(o.order_no) || '?'} / transaction_id ${text(o.transaction_id) || '?'} (/v1/retrievalTrans or the merchant portal) to see whether the ${operation} took effect before sending it again`;
    const unknown = (p: PendingOrder, reason: string): OrderOutcome => ({ index: p.index, kind: 'unknown', order: p.order, reason, reconcile: how(p.order) });
    // The query has answered: the order is not applied, and its resends are spent. Sending it again is safe.
    const notApplied = (p: PendingOrder): OrderOutcome => ({
      index: p.index,
      kind: 'failed',
      order: p.order,
      reconciled: true,
      reason: `no answer to the ${operation} after ${sendsOf(p)}; a query shows it has not taken effect, so it is safe to send again`,
    });
    const noAnswer = sent ? `no answer to the ${operation}` : `the batch stopped (a crash or kill) around the ${operation}'s send, with nothing journaled to show it went out`;
    const outcomes: OrderOutcome[] = [];
    const resend: PendingOrder[] = [];
    for (let start = 0; start < orders.length; start += RECONCILE_QUERY_LIMIT) {
      const group = orders.slice(start, start + RECONCILE_QUERY_LIMIT);
      let listed: Order[] | null = null;
      let lastError: unknown;
      // A query is safe to repeat: a few spaced tries before an order is left unknown.
      for (let attempt = 0; attempt < RECONCILE_QUERY_TRIES && listed === null; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 1)));
        try {
          const answer = (await this.#settings.client.query(this.#selection(group.map((p) => p.order)))) as { orders_list?: Order[] };
          listed = Array.isArray(answer.orders_list) ? answer.orders_list : [];
        } catch (error) {
          lastError = error;
        }
      }
      if (listed === null) {
        outcomes.push(...group.map((p) => unknown(p, `${noAnswer}, and ${RECONCILE_QUERY_TRIES} queries to check it failed too: ${messageOf(lastError)}`)));
        continue;
      }
      const found = listed;
      for (const pending of group) {
        const id = text(pending.order.transaction_id);
        const no = text(pending.order.order_no);
        const queried = found.find((q) => text(q.query_result) === '1' && (id ? text(q.transaction_id) === id : text(q.order_no) === no));
        let verdict: ReturnType<Reconciler> | Error;
        try {
          verdict = this.#reconcile({ operation, order: pending.order, queried: queried as never });
        } catch (error) {
          // A reconciler that throws has told nothing: the order may have been applied.
          verdict = error instanceof Error ? error : new Error(String(error));
        }
        if (verdict instanceof Error) outcomes.push(unknown(pending, `${noAnswer}, and reading the query answer failed: ${verdict.message}`));
        else if (verdict === 'applied') outcomes.push({ index: pending.index, kind: 'succeeded', order: pending.order, reconciled: true, reason: `${noAnswer}; a query shows it took effect` });
        else if (verdict === 'not-applied' && !sent) resend.push({ ...pending, interrupted: (pending.interrupted ?? 0) + 1 });
        else if (verdict === 'not-applied' && pending.resends < (this.#settings.maxResends ?? 2)) resend.push({ ...pending, resends: pending.resends + 1 });
        else if (verdict === 'not-applied') outcomes.push(notApplied(pending));
        else outcomes.push(unknown(pending, `${noAnswer}, and a query cannot tell whether it took effect`));
      }
    }
    return { outcomes, resend };
  }

  /** Writes the final journal line and reports the result. */
  async finish(): Promise<BatchResult> {
    await this.#journal?.append({ type: 'end', at: new Date().toISOString() });
    const counts = { ...this.ledger.counts };
    return {
      operation: this.#settings.operation,
      counts,
      total: this.ledger.size,
      outcomes: this.ledger.outcomes(),
      durationMs: Date.now() - this.#startedAt,
      journal: this.#journal?.path ?? null,
    };
  }
}
