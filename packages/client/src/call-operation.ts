import { createSignableMessage } from '@gw/signer-interface';
import { operations, ValidationError, type OperationName, type OperationSpec, type RequestEncoding, type ValidationProblem } from '@gw/types';
import { DecodeError, encodeRequestBody, type CheckoutPage, type EncodeRequestBodyOptions, type RequestBodyEncoding } from '@gw/xml-codec';
import type { ResolvedClientOptions } from './client-options.ts';
import { decodeResponseBody, tooLargeBody, withOperation, type DecodedBody } from './decode-response.ts';
import { ConfigError } from './errors/config-error.ts';
import { ConnectionError } from './errors/connection-error.ts';
import { GatewayError } from './errors/gateway-error.ts';
import { HttpError } from './errors/http-error.ts';
import { OutcomeUnknownError } from './errors/outcome-unknown-error.ts';
import { SignatureError } from './errors/signature-error.ts';
import { TimeoutError } from './errors/timeout-error.ts';
import type { FieldNames } from './field-names.ts';
import { emit } from './hooks.ts';
import { defaultQuerySelection, readQuerySelection, type QueryInput } from './query-selection.ts';
import { redactRecord } from './redact.ts';
import { requestIdentifiers, type RequestIdentifiers } from './request-identifiers.ts';
import { requestLine, type RequestLine } from './request-line.ts';
import { backoffDelay, RETRIED_QUERY_STATUSES, sleep } from './retry.ts';
import { Transport, TransportFailure, type Exchange } from './transport.ts';
import { RequestValidation } from './validate-request.ts';
import { checkResponseSignature, type ResponseSignatureCheck } from './verify-response.ts';
import { answerFailureError } from './answer-failure.ts';
import { AnswerPolicy } from './answer-policy.ts';
import { wholeRequestRefusal } from './whole-refusal.ts';
import { NotSentError, type NotSentStage } from './errors/not-sent-error.ts';
import { retryAfterMs, ThrottledError } from './errors/throttled-error.ts';
import { describeThrown } from './thrown.ts';
import type { AttemptTelemetry } from './telemetry/attempt-telemetry.ts';
import { ClientTelemetry } from './telemetry/client-telemetry.ts';

/** Options of one call. */
export interface CallOptions {
  /** This call's time limit per try, in ms, instead of the client's `timeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Runs immediately before each try is written to a socket (after queueing and connecting). Throwing stops the call
   * unsent: it rejects with a `NotSentError` (stage `before-send`, the thrown value as `cause`) and is not retried.
   * A batch worker uses it to send only while it still holds its lease.
   */
  readonly beforeSend?: () => void;
}

/** What `checkout` returns: the decoded page (form action, hidden fields, allParams) and the HTML to hand the shopper's browser. */
export interface CheckoutResult extends CheckoutPage {
  /** The page as the gateway sent it. */
  readonly html: string;
}

/** A request ready to send: the signed body and what is needed to report on it. */
interface PreparedRequest {
  readonly op: OperationSpec;
  readonly record: Record<string, unknown>;
  readonly body: string;
  readonly moneyMoving: boolean;
}

/** One try: an answer, or the wire failure. */
type Attempt = { readonly exchange: Exchange } | { readonly failure: TransportFailure };

/** A try the gateway throttled: its status and how long it asked to wait (null: not said). Caught by the retry loop. */
class Throttle extends Error {
  override readonly name = 'Throttle';
  readonly status: number;
  readonly retryAfterMs: number | null;

  constructor(status: number, retryAfterMs: number | null) {
    super(`HTTP ${status}: the gateway asked to slow down`);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A try that failed in a way that may be tried again: `error` is what the caller gets once the tries are spent. */
class Retryable extends Error {
  override readonly name = 'Retryable';
  readonly error: Error;

  constructor(error: Error) {
    super('a try that may be made again');
    this.error = error;
  }
}

const IDENTITY_FIELDS = new Set(['merchant_id', 'account_id', 'encryption_data']);

/** Runs one operation: fill, validate, sign, encode, send (with retries where safe), decode, verify, check. */
export class OperationCaller {
  readonly #options: ResolvedClientOptions;
  readonly #transport: Transport;
  readonly #validation = new RequestValidation();
  readonly #lines = new Map<OperationName, RequestLine>();
  readonly #encodeOptions = new Map<OperationName, EncodeRequestBodyOptions>();
  readonly #answers: AnswerPolicy;
  readonly #telemetry: ClientTelemetry | null;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#telemetry = ClientTelemetry.create(options.telemetry, { origin: options.origin });
    this.#answers = new AnswerPolicy(options.answers, options.hooks);
    this.#transport = new Transport(options.transport);
    for (const op of Object.values(operations) as OperationSpec[]) {
      const name = op.name as OperationName;
      const encoding: RequestEncoding = options.encodingOverrides.get(name) ?? op.requestEncoding;
      this.#encodeOptions.set(name, {
        ...(options.xmlRequestRoot === undefined ? {} : { xmlRoot: options.xmlRequestRoot }),
        ...(encoding === op.requestEncoding ? {} : { encoding: encoding as RequestBodyEncoding }),
      });
      // Path and Content-Type come from the generated table; UNKNOWNS U31, U32 and U33 options change the headers.
      this.#lines.set(name, requestLine(op, { baseUrl: options.baseUrl, encoding, jsonContentType: options.jsonContentType, headers: options.headers }));
    }
  }

  /** Closes the connections of the client's own Agent. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Calls `operation` with the caller's record (or, for query, selection). */
  async call(operation: OperationName, input: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const op: OperationSpec = operations[operation];
    const started = performance.now();
    const hooks = this.#options.hooks;
    let attempt = 0;
    // Tries that failed in a way `retry.attempts` counts (a throttle is not one), throttles waited out, and for how long.
    let failed = 0;
    let throttles = 0;
    let waitedMs = 0;
    try {
      const timeoutMs = callOptions.timeoutMs ?? this.#options.timeoutMs;
      if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new ConfigError('timeoutMs', 'must be a positive number of milliseconds');
      let prepared: PreparedRequest;
      try {
        prepared = await this.#prepare(operation, input);
      } catch (error) {
        // Refusals of the input or options stay as they are; anything else that threw before sending says so.
        throw error instanceof ValidationError || error instanceof ConfigError || error instanceof NotSentError ? error : notSent(operation, 'prepare', error);
      }
      for (;;) {
        attempt += 1;
        const tryNumber = attempt;
        if (hooks.onRequest) emit(hooks.onRequest, () => ({ operation, path: op.path, attempt: tryNumber, record: redactRecord(prepared.record) }));
        const telemetry = this.#telemetry?.startAttempt(op, tryNumber, this.#lines.get(operation)!.path, prepared.record) ?? null;
        try {
          const result = await this.#attempt(prepared, tryNumber, timeoutMs, callOptions.beforeSend, telemetry);
          telemetry?.end(null);
          return result;
        } catch (error) {
          const throttled = error instanceof Throttle ? this.#throttledError(prepared, error, waitedMs) : null;
          telemetry?.end(throttled ?? (error instanceof Retryable ? error.error : error));
          if (error instanceof Throttle && throttled) {
            // A query waits what the gateway asked and goes again, within the budget; anything else is the caller's.
            const wait = error.retryAfterMs ?? backoffDelay(this.#options.retry, ++throttles);
            if (op.retryClass !== 'safe' || waitedMs + wait > this.#options.retry.maxThrottleWaitMs) throw throttled;
            if (hooks.onError)
              emit(hooks.onError, () => ({
                operation,
                path: op.path,
                attempt: tryNumber,
                durationMs: performance.now() - started,
                error: throttled,
                willRetry: true,
              }));
            waitedMs += wait;
            await sleep(wait);
            continue;
          }
          if (!(error instanceof Retryable) || ++failed >= this.#options.retry.attempts) throw error instanceof Retryable ? error.error : error;
          if (hooks.onError)
            emit(hooks.onError, () => ({
              operation,
              path: op.path,
              attempt: tryNumber,
              durationMs: performance.now() - started,
              error: error.error,
              willRetry: true,
            }));
          await sleep(backoffDelay(this.#options.retry, failed));
        }
      }
    } catch (error) {
      if (hooks.onError) emit(hooks.onError, () => ({ operation, path: op.path, attempt, durationMs: performance.now() - started, error, willRetry: false }));
      throw error;
    }
  }

  /** The request record filled, validated, renamed for the wire, signed and encoded. Nothing is sent if any of it fails. */
  async #prepare(operation: OperationName, input: unknown): Promise<PreparedRequest> {
    const op: OperationSpec = operations[operation];
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new ConfigError(`${operation}(request)`, 'must be an object');
    const options = this.#options;
    const record: Record<string, unknown> = { merchant_id: options.merchantId, account_id: options.accountId };
    let known: ValidationProblem[] = [];
    if (op.batch?.separator) {
      // A list-in-a-string selection (query): the caller gives lists, the querySelection option makes the form fields.
      const { selection, problems } = readQuerySelection(input as QueryInput);
      known = problems;
      if (problems.length === 0) Object.assign(record, options.querySelection(selection));
    } else {
      for (const key of Object.keys(input)) {
        if (IDENTITY_FIELDS.has(key)) continue;
        // A member named `__proto__` (from JSON.parse) stays a member; plain assignment would set the prototype.
        Object.defineProperty(record, key, { value: (input as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
      }
    }
    // A custom querySelection (U36) may name fields the spec does not list; the caller's own members were checked above.
    const custom = Boolean(op.batch?.separator) && options.querySelection !== defaultQuerySelection;
    this.#validation.check(operation, record, known, options.unknownFields === 'send' || custom ? 'allow' : 'refuse');

    const wire = options.fieldNames.toWire(record);
    const encodeOptions = this.#encodeOptions.get(operation)!;
    const message = createSignableMessage({ operation, record: wire, body: () => encodeRequestBody(operation, wire, encodeOptions) });
    let signature: unknown;
    try {
      const signing = options.signer.sign(message);
      signature = typeof signing === 'string' ? signing : await signing; // no extra tick for a synchronous signer
    } catch (error) {
      throw notSent(operation, 'sign', error);
    }
    if (typeof signature !== 'string' || signature === '')
      throw new ConfigError(
        'signer',
        `returned ${typeof signature === 'string' ? 'an empty string' : typeof signature} for ${operation}; a signer returns the encryption_data text`,
      );
    return {
      op,
      record,
      body: encodeRequestBody(operation, { ...wire, encryption_data: signature }, encodeOptions),
      moneyMoving: op.retryClass === 'money-moving',
    };
  }

  /** Sends the signed body with the operation's request line (path and headers from the operation table), through undici. */
  async #send(prepared: PreparedRequest, timeoutMs: number, beforeWrite: (() => void) | undefined, telemetry: AttemptTelemetry | null): Promise<Attempt> {
    const { op, body } = prepared;
    const { origin, maxInputBytes } = this.#options;
    const line = this.#lines.get(op.name as OperationName)!;
    const headers = telemetry ? telemetry.headers(line.headers) : line.headers;
    try {
      const exchange = await this.#transport.exchange({ origin, path: line.path, headers, body, timeoutMs, maxResponseBytes: maxInputBytes, beforeWrite });
      telemetry?.answered(exchange.status);
      return { exchange };
    } catch (error) {
      return { failure: error instanceof TransportFailure ? error : new TransportFailure('network', false, 'unknown', { cause: error }) };
    }
  }

  /** One try. Throws a Retryable when the try may be made again. */
  async #attempt(
    prepared: PreparedRequest,
    attempt: number,
    timeoutMs: number,
    beforeSend: (() => void) | undefined,
    telemetry: AttemptTelemetry | null,
  ): Promise<unknown> {
    const { op } = prepared;
    const operation = op.name as OperationName;
    const hooks = this.#options.hooks;
    const sentAt = performance.now();
    // Read only on failure: the request's identifiers for reconciling, null for operations that move no money.
    const identifiers = (): RequestIdentifiers | null => (prepared.moneyMoving ? requestIdentifiers(operation, prepared.record) : null);
    const outcome = await this.#send(prepared, timeoutMs, beforeSend, telemetry);

    if ('failure' in outcome) throw this.#failureError(prepared, outcome.failure, attempt, timeoutMs);
    const { exchange } = outcome;
    // "Slow down" (UNKNOWNS U50): 429, or 503 with a Retry-After; the body is not read.
    if (exchange.status === 429 || (exchange.status === 503 && exchange.retryAfter !== undefined)) {
      emit(hooks.onResponse, () => ({ operation, path: op.path, attempt, status: exchange.status, durationMs: performance.now() - sentAt, record: null }));
      throw new Throttle(exchange.status, retryAfterMs(exchange.retryAfter));
    }
    if (exchange.status < 200 || exchange.status > 299) {
      emit(hooks.onResponse, () => ({ operation, path: op.path, attempt, status: exchange.status, durationMs: performance.now() - sentAt, record: null }));
      const error = new HttpError({ operation, path: op.path, status: exchange.status, body: exchange.body.toString('utf8'), identifiers: identifiers() });
      throw op.retryClass === 'safe' && RETRIED_QUERY_STATUSES.has(exchange.status) ? new Retryable(error) : error;
    }

    let read: { readonly result: unknown } | { readonly error: Error };
    try {
      read = await this.#readAnswer(prepared, exchange, attempt, sentAt, identifiers);
    } catch (error) {
      // Anything else that throws with an answer in hand (a depth limit, a bug): the request did reach the gateway.
      throw answerFailureError(operation, 'read', error, identifiers());
    }
    if ('error' in read) throw read.error;
    return read.result;
  }

  /** Decodes, reports, verifies and checks a 2xx answer; the expected refusals are returned, never thrown. */
  async #readAnswer(
    prepared: PreparedRequest,
    exchange: Exchange,
    attempt: number,
    sentAt: number,
    identifiers: () => RequestIdentifiers | null,
  ): Promise<{ readonly result: unknown } | { readonly error: Error }> {
    const { op } = prepared;
    const operation = op.name as OperationName;
    const hooks = this.#options.hooks;
    const text = utf8Text(exchange.body);
    let decoded: DecodedBody;
    try {
      decoded = decodeResponseBody(operation, text, this.#options);
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      emit(hooks.onResponse, () => ({ operation, path: op.path, attempt, status: exchange.status, durationMs: performance.now() - sentAt, record: null }));
      return { error: withOperation(error, operation, identifiers()) };
    }
    const names = this.#options.fieldNames;
    if (decoded.kind === 'page') {
      const page = renamePage(decoded.page, names);
      if (hooks.onResponse)
        emit(hooks.onResponse, () => ({
          operation,
          path: op.path,
          attempt,
          status: exchange.status,
          durationMs: performance.now() - sentAt,
          record: redactRecord({ ...page.fields }),
        }));
      return { result: { ...page, html: text } satisfies CheckoutResult };
    }
    if (hooks.onResponse)
      emit(hooks.onResponse, () => ({
        operation,
        path: op.path,
        attempt,
        status: exchange.status,
        durationMs: performance.now() - sentAt,
        record: redactRecord(names.fromWire(decoded.record)),
      }));

    const verifier = this.#options.verifier;
    if (verifier) {
      let check: ResponseSignatureCheck;
      try {
        const checking = checkResponseSignature(operation, decoded.record, verifier);
        check = typeof checking === 'string' ? checking : await checking;
      } catch (error) {
        // A verifier (a signing service, an HSM) that is down: the answer came but cannot be trusted or refused.
        return { error: answerFailureError(operation, 'verify', error, identifiers()) };
      }
      if (check === 'missing' || check === 'mismatch') {
        // An unverifiable whole-request refusal (E003 for a wrong secret) is a refusal, not an unknown outcome.
        const refusal = wholeRequestRefusal(operation, decoded.record);
        return { error: new SignatureError({ operation, reason: check, response: names.fromWire(decoded.record), identifiers: identifiers(), refusal }) };
      }
    }
    const response = names.fromWire(decoded.record);
    // UNKNOWNS U57: an answer that differs from the spec is refused, reported or accepted, by the `answers` option.
    const drift = this.#answers.check(operation, response, attempt, identifiers);
    if (drift) return { error: drift };
    // UNKNOWNS U47: batch and query responses carry an overall return_status; anything but "1" refuses the whole request.
    if (op.batch && response.return_status !== '1') return { error: new GatewayError({ operation, response }) };
    return { result: response };
  }

  /** The ThrottledError of a throttled try: for a money-moving request, with what the client's policy says it means. */
  #throttledError(prepared: PreparedRequest, throttle: Throttle, waitedMs: number): ThrottledError {
    const operation = prepared.op.name as OperationName;
    const identifiers = prepared.moneyMoving ? requestIdentifiers(operation, prepared.record) : null;
    return new ThrottledError({
      operation,
      path: prepared.op.path,
      status: throttle.status,
      retryAfterMs: throttle.retryAfterMs,
      waitedMs,
      outcome: prepared.moneyMoving ? this.#options.throttled : null,
      identifiers,
    });
  }

  /** The typed error of a wire failure, wrapped in Retryable when the request may be sent again. */
  #failureError(prepared: PreparedRequest, failure: TransportFailure, attempts: number, timeoutMs: number): Error | Retryable {
    const { op } = prepared;
    const operation = op.name as OperationName;
    const path = op.path;
    const identifiers = prepared.moneyMoving ? requestIdentifiers(operation, prepared.record) : null;
    if (failure.kind === 'too-large') return withOperation(tooLargeBody(operation, this.#options.maxInputBytes), operation, identifiers);
    if (failure.kind === 'refused-before-write') return notSent(operation, 'before-send', failure.cause);
    if (failure.kind === 'timeout') {
      const timeout = new TimeoutError({ operation, path, timeoutMs, sent: failure.sent });
      // A money-moving request that left and got no answer in time may have happened.
      if (failure.sent && identifiers) return new OutcomeUnknownError({ operation, path, reason: 'timeout', identifiers }, { cause: timeout });
      return timeout;
    }
    if (failure.sent && identifiers) return new OutcomeUnknownError({ operation, path, reason: 'connection-lost', identifiers }, { cause: failure.cause });
    // Never sent (refused, DNS, TLS): nothing happened, so any operation may go again; a query may go again regardless.
    return new Retryable(new ConnectionError({ operation, path, sent: failure.sent, reason: failure.reason, attempts }, { cause: failure.cause }));
  }
}

/** A NotSentError for something thrown before the request left the process. */
function notSent(operation: OperationName, stage: NotSentStage, thrown: unknown): NotSentError {
  const { name, text } = describeThrown(thrown);
  return new NotSentError({ operation, stage, causeName: name, causeText: text }, { cause: thrown });
}

/** The body as text, as a WHATWG `Response.text()` reads it: UTF-8, a leading byte-order mark dropped. */
function utf8Text(body: Buffer): string {
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function renameEntries(entries: readonly (readonly [string, string])[], rename: (name: string) => string): [string, string][] {
  return entries.map(([name, value]) => [rename(name), value]);
}

function renameFields(fields: Readonly<Record<string, string>>, rename: (name: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  const fromWireName = new Set<string>();
  for (const [name, value] of Object.entries(fields)) {
    const renamed = rename(name);
    // When the page carries both the wire name and the name it stands for, the wire name's value wins.
    if (renamed !== name) fromWireName.add(renamed);
    else if (fromWireName.has(name)) continue;
    Object.defineProperty(out, renamed, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// UNKNOWNS U09: the page echoes request fields under their wire names; the caller gets the TypeScript names back.
function renamePage(page: CheckoutPage, names: FieldNames): CheckoutPage {
  if (!names.active) return page;
  const rename = (name: string): string => names.nameFromWire(name);
  return {
    ...page,
    fields: renameFields(page.fields as Record<string, string>, rename) as CheckoutPage['fields'],
    entries: renameEntries(page.entries, rename),
    allParams: page.allParams && {
      raw: page.allParams.raw,
      params: renameFields(page.allParams.params, rename),
      entries: renameEntries(page.allParams.entries, rename),
    },
  };
}
