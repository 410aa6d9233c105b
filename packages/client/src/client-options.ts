import type { Signer, Verifier } from '@gw/signer-interface';
import { DEFAULT_CALL_TIMEOUT_MS, operations, type OperationName, type OperationSpec } from '@gw/types';
import { DEFAULT_MAX_INPUT_BYTES, type RequestBodyEncoding } from '@gw/xml-codec';
import { DEFAULT_ANSWERS, type AnswersOption } from './answer-policy.ts';
import { ConfigError, type ConfigProblem } from './errors/config-error.ts';
import { FieldNames } from './field-names.ts';
import type { ClientHooks } from './hooks.ts';
import { defaultQuerySelection, type QuerySelectionBuilder } from './query-selection.ts';
import { DEFAULT_RETRY, type RetryOptions, type RetryPolicy } from './retry.ts';
import type { TransportOptions } from './transport.ts';
import type { ThrottledMeaning } from './errors/throttled-error.ts';
import { resolveTelemetry, type ResolvedTelemetry, type TelemetryOption } from './telemetry/telemetry-options.ts';

/** Everything `createClient` takes. Only `baseUrl`, `merchantId`, `accountId` and `signer` are required. */
export interface ClientOptions {
  /** The gateway's base address, e.g. the sandbox's `sandbox.url` (UNKNOWNS U01: there is no default). */
  readonly baseUrl: string;
  /** Filled into every request as `merchant_id`. */
  readonly merchantId: string;
  /** Filled into every request as `account_id`. */
  readonly accountId: string;
  /** Computes each request's `encryption_data` (UNKNOWNS U41). */
  readonly signer: Signer;
  /** Checks response signatures. Default: the signer, when it can also verify (the reference signers can). */
  readonly verifier?: Verifier;
  /** Verify response `encryption_data` per operation (UNKNOWNS U42). Default true; false for a gateway that does not sign them. */
  readonly verifyResponses?: boolean;
  /** Time limit of each try, from sending to the end of the answer, in ms (UNKNOWNS U51). Default 30000. */
  readonly timeoutMs?: number;
  /** Retries of requests that never left, and of queries. Default `{ attempts: 3, baseDelayMs: 100, maxDelayMs: 2000 }`. */
  readonly retry?: RetryOptions;
  /** Connection reuse and a dispatcher of your own (an undici `Agent`, `Pool` or `ProxyAgent`). */
  readonly transport?: TransportOptions;
  /** Logging and metrics. */
  readonly hooks?: ClientHooks;
  /** Extra static headers on every request, e.g. for a proxy (UNKNOWNS U33). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Content-Type of JSON bodies (UNKNOWNS U32). Default `application/json`; the seed's samples use `application/x-www-form-urlencoded`. */
  readonly jsonContentType?: string;
  /** Builds the form fields that select orders to query (UNKNOWNS U36). Default: `order_no` / `transaction_id`, comma-joined. */
  readonly querySelection?: QuerySelectionBuilder;
  /** Root element of the cancelSubscription XML body (UNKNOWNS U35). Default `request`. */
  readonly xmlRequestRoot?: string;
  /**
   * Body encoding of the operations whose body type the seed leaves open (UNKNOWNS U31: `authoriseCard`,
   * `authoriseAlternative`, `checkout`): `json` (the default) or `form`, nested members then as JSON text.
   */
  readonly encodingOverrides?: Readonly<Partial<Record<OperationName, RequestBodyEncoding>>>;
  /** Field names changed on the wire and back, e.g. `{ 'the service': 'website' }` (UNKNOWNS U09). */
  readonly fieldNameOverrides?: Readonly<Record<string, string>>;
  /** Keep the wire text of JSON numbers, read with `exactNumber(holder, key)` (UNKNOWNS U15). Default true. */
  readonly exactNumbers?: boolean;
  /** Largest response body read, in bytes (UNKNOWNS U51). Default 1 MiB. */
  readonly maxInputBytes?: number;
  /**
   * Request members the spec does not list: `refuse` (default: a ValidationError naming each, with the closest known
   * name) or `send` (sent as given, for a gateway that accepts extra fields). Card data is refused either way on
   * every operation that does not carry it.
   */
  readonly unknownFields?: UnknownFieldsOption;
  /**
   * What a money-moving request answered with a throttle (HTTP 429, or 503 with Retry-After) means (UNKNOWNS U50):
   * `not-applied` (default: HTTP's convention, the gateway refused it before processing it; send it again after the
   * wait) or `unknown` (reconcile by query first). The client never sends it again by itself either way.
   */
  readonly throttled?: ThrottledMeaning;
  /**
   * What an answer that differs from the spec gets (a field of the wrong type, a member the spec does not list: what
   * `gw proxy` reports as drift, by the same rule; UNKNOWNS U57): `report` (default: accepted, and
   * `hooks.onAnswerDrift` called, or a warning once per place without it), `refuse` (an AnswerDriftError; for a
   * money-moving call its outcome is unknown: reconcile) or `accept` (not checked).
   */
  readonly answers?: AnswersOption;
  /**
   * OpenTelemetry (`@opentelemetry/api`, an optional peer): a CLIENT span per try and the `http.client.request.duration`
   * histogram wherever an SDK is registered. `false` turns it off; `{ propagate: true }` also sends a `traceparent`
   * header to the gateway (default off, UNKNOWNS U58).
   */
  readonly telemetry?: TelemetryOption;
}

/** What the client does with request members the spec does not list. */
export type UnknownFieldsOption = 'refuse' | 'send';

/** The operations whose body encoding is the toolkit's policy, not the seed's (`x-gw-request-encoding-declared: false`). */
const OPEN_ENCODINGS: readonly string[] = (Object.values(operations) as OperationSpec[]).filter((op) => !op.requestEncodingDeclared).map((op) => op.name);

function resolveEncodingOverrides(value: unknown): ReadonlyMap<OperationName, RequestBodyEncoding> {
  if (value === undefined) return new Map();
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError('encodingOverrides', 'must be an object of operation name -> "json" | "form"');
  const problems: string[] = [];
  const overrides = new Map<OperationName, RequestBodyEncoding>();
  for (const [name, encoding] of Object.entries(value)) {
    if (!OPEN_ENCODINGS.includes(name)) {
      problems.push(
        `${name}: ${Object.hasOwn(operations, name) ? 'the seed declares its body type' : 'is not an operation'}; only ${OPEN_ENCODINGS.join(', ')} may be changed`,
      );
    } else if (encoding !== 'json' && encoding !== 'form') {
      problems.push(`${name}: ${JSON.stringify(encoding)} is not "json" or "form"`);
    } else {
      overrides.set(name as OperationName, encoding);
    }
  }
  if (problems.length > 0) throw new ConfigError('encodingOverrides', `has ${problems.length} problem(s): ${problems.join('; ')} (UNKNOWNS U31)`);
  return overrides;
}

/** The options with every default filled in and every value checked. */
export interface ResolvedClientOptions {
  readonly baseUrl: string;
  readonly origin: string;
  readonly merchantId: string;
  readonly accountId: string;
  readonly signer: Signer;
  readonly verifier: Verifier | null;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly transport: TransportOptions;
  readonly hooks: ClientHooks;
  readonly headers: Readonly<Record<string, string>>;
  readonly jsonContentType: string | null;
  readonly querySelection: QuerySelectionBuilder;
  readonly xmlRequestRoot: string | undefined;
  readonly encodingOverrides: ReadonlyMap<OperationName, RequestBodyEncoding>;
  readonly fieldNames: FieldNames;
  readonly exactNumbers: boolean;
  readonly maxInputBytes: number;
  readonly unknownFields: UnknownFieldsOption;
  readonly throttled: ThrottledMeaning;
  readonly answers: AnswersOption;
  readonly telemetry: ResolvedTelemetry | null;
}

function nonEmptyString(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(option, 'must be a non-empty string');
  return value;
}

function positive(value: unknown, option: string, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ConfigError(option, `must be a positive ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

function stringRecord(value: unknown, option: string): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(option, 'must be an object of strings');
  const problems: ConfigProblem[] = [];
  for (const [key, member] of Object.entries(value))
    if (typeof member !== 'string' || member === '') problems.push({ option: `${option}[${JSON.stringify(key)}]`, message: 'must be a non-empty string' });
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...(value as Record<string, string>) };
}

function resolveRetry(retry: RetryOptions | undefined): RetryPolicy {
  if (retry === undefined) return DEFAULT_RETRY;
  if (retry === null || typeof retry !== 'object') throw new ConfigError('retry', 'must be an object { attempts, baseDelayMs, maxDelayMs }');
  const attempts = positive(retry.attempts, 'retry.attempts', DEFAULT_RETRY.attempts, true);
  const delay = (value: unknown, option: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new ConfigError(option, 'must be a number of milliseconds, 0 or more');
    return value;
  };
  const baseDelayMs = delay(retry.baseDelayMs, 'retry.baseDelayMs', DEFAULT_RETRY.baseDelayMs);
  const maxThrottleWaitMs = delay(retry.maxThrottleWaitMs, 'retry.maxThrottleWaitMs', DEFAULT_RETRY.maxThrottleWaitMs);
  return { attempts, baseDelayMs, maxDelayMs: Math.max(baseDelayMs, delay(retry.maxDelayMs, 'retry.maxDelayMs', DEFAULT_RETRY.maxDelayMs)), maxThrottleWaitMs };
}

function resolveVerifier(options: ClientOptions): Verifier | null {
  if (options.verifyResponses === false) return null;
  if (options.verifyResponses !== undefined && options.verifyResponses !== true) throw new ConfigError('verifyResponses', 'must be true or false');
  const verifier = options.verifier ?? (typeof (options.signer as Partial<Verifier>).verify === 'function' ? (options.signer as Signer & Verifier) : undefined);
  if (!verifier || typeof verifier.verify !== 'function') {
    throw new ConfigError('verifier', 'is required to verify response signatures: pass a Verifier, a signer that can verify, or verifyResponses: false');
  }
  return verifier;
}

function resolveFieldNames(value: unknown): FieldNames {
  const overrides = stringRecord(value, 'fieldNameOverrides');
  const wire = Object.values(overrides);
  if (new Set(wire).size !== wire.length) throw new ConfigError('fieldNameOverrides', 'maps two fields to the same wire name');
  return new FieldNames(overrides);
}

function resolveUnknownFields(value: unknown): UnknownFieldsOption {
  if (value === undefined) return 'refuse';
  if (value !== 'refuse' && value !== 'send') throw new ConfigError('unknownFields', `must be "refuse" or "send", not ${JSON.stringify(value)}`);
  return value;
}

function resolveThrottled(value: unknown): ThrottledMeaning {
  if (value === undefined) return 'not-applied';
  if (value !== 'not-applied' && value !== 'unknown')
    throw new ConfigError('throttled', `must be "not-applied" or "unknown", not ${JSON.stringify(value)} (UNKNOWNS U50)`);
  return value;
}

function resolveAnswers(value: unknown): AnswersOption {
  if (value === undefined) return DEFAULT_ANSWERS;
  if (value !== 'refuse' && value !== 'report' && value !== 'accept')
    throw new ConfigError('answers', `must be "refuse", "report" or "accept", not ${JSON.stringify(value)} (UNKNOWNS U57)`);
  return value;
}

/** Runs each check, keeping going after a bad option, so one ConfigError can name them all. */
class ProblemList {
  readonly problems: ConfigProblem[] = [];

  /** The value `check` returns, or `fallback` when it throws a ConfigError (whose problems are kept). */
  take<T>(check: () => T, fallback: T): T {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.problems.push(...error.details.problems);
      return fallback;
    }
  }
}

function resolveUrl(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(nonEmptyString(value, 'baseUrl'));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError('baseUrl', 'is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('baseUrl', 'must be an http: or https: URL');
  if (url.username || url.password)
    throw new ConfigError('baseUrl', 'must not carry credentials (the interface uses none, seed §5.3; a proxy goes in transport.dispatcher)');
  return url;
}

function checkFunctions(options: ClientOptions, list: ProblemList): void {
  const hooks = (options.hooks ?? {}) as Record<string, unknown>;
  for (const name of ['onRequest', 'onResponse', 'onError', 'onAnswerDrift'] as const) {
    if (hooks[name] !== undefined && typeof hooks[name] !== 'function') list.problems.push({ option: `hooks.${name}`, message: 'must be a function' });
  }
  if (options.querySelection !== undefined && typeof options.querySelection !== 'function')
    list.problems.push({ option: 'querySelection', message: 'must be a function' });
  if (options.exactNumbers !== undefined && typeof options.exactNumbers !== 'boolean')
    list.problems.push({ option: 'exactNumbers', message: 'must be true or false' });
}

function checkTransport(transport: TransportOptions, list: ProblemList): void {
  if (transport.dispatcher !== undefined && typeof (transport.dispatcher as { dispatch?: unknown } | null)?.dispatch !== 'function') {
    list.problems.push({ option: 'transport.dispatcher', message: 'must be an undici Dispatcher (Agent, Pool, ProxyAgent)' });
  }
  if (transport.connections !== undefined) list.take(() => positive(transport.connections, 'transport.connections', 0, true), 0);
  if (transport.keepAliveTimeoutMs !== undefined) list.take(() => positive(transport.keepAliveTimeoutMs, 'transport.keepAliveTimeoutMs', 0), 0);
}

/** Checks every option and fills in the defaults; bad options are one ConfigError naming every one of them. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (options === null || typeof options !== 'object') throw new ConfigError('options', 'must be an object');
  const list = new ProblemList();
  const url = list.take(() => resolveUrl(options.baseUrl), null);
  const signerOk = Boolean(options.signer) && typeof options.signer.sign === 'function';
  if (!signerOk) list.problems.push({ option: 'signer', message: 'must be a Signer (an object with sign(message))' });
  checkFunctions(options, list);
  const transport = options.transport ?? {};
  checkTransport(transport, list);
  const resolved = {
    merchantId: list.take(() => nonEmptyString(options.merchantId, 'merchantId'), ''),
    accountId: list.take(() => nonEmptyString(options.accountId, 'accountId'), ''),
    verifier: signerOk ? list.take(() => resolveVerifier(options), null) : null,
    timeoutMs: list.take(() => positive(options.timeoutMs, 'timeoutMs', DEFAULT_CALL_TIMEOUT_MS), 0),
    retry: list.take(() => resolveRetry(options.retry), DEFAULT_RETRY),
    headers: list.take(() => stringRecord(options.headers, 'headers'), {}),
    jsonContentType: list.take(() => (options.jsonContentType === undefined ? null : nonEmptyString(options.jsonContentType, 'jsonContentType')), null),
    xmlRequestRoot: list.take(() => (options.xmlRequestRoot === undefined ? undefined : nonEmptyString(options.xmlRequestRoot, 'xmlRequestRoot')), undefined),
    encodingOverrides: list.take(() => resolveEncodingOverrides(options.encodingOverrides), new Map()),
    fieldNames: list.take(() => resolveFieldNames(options.fieldNameOverrides), new FieldNames()),
    maxInputBytes: list.take(() => positive(options.maxInputBytes, 'maxInputBytes', DEFAULT_MAX_INPUT_BYTES, true), 0),
    unknownFields: list.take(() => resolveUnknownFields(options.unknownFields), 'refuse' as UnknownFieldsOption),
    throttled: list.take(() => resolveThrottled(options.throttled), 'not-applied' as ThrottledMeaning),
    answers: list.take(() => resolveAnswers(options.answers), DEFAULT_ANSWERS),
    telemetry: list.take(() => resolveTelemetry(options.telemetry), null),
  };
  if (list.problems.length > 0 || url === null) throw new ConfigError(list.problems);
  return {
    ...resolved,
    baseUrl: url.href.replace(/\/+$/, ''),
    origin: url.origin,
    signer: options.signer,
    transport,
    hooks: options.hooks ?? {},
    querySelection: options.querySelection ?? defaultQuerySelection,
    exactNumbers: options.exactNumbers ?? true,
  };
}
