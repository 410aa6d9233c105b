import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmacSha256Signer, createSignableMessage, type Signer, type Verifier } from '@gw/signer-interface';
import { RecordValidator, operations, type OperationName, type OperationSpec } from '@gw/types';
import { encodeRequestBody } from '@gw/xml-codec';
import { withoutCardData } from './card-data.ts';
import { SandboxClock } from './clock.ts';
import type { HandlerContext, SandboxNotify, WireRecord } from './context.ts';
import type { ControlDeps } from './control/control-deps.ts';
import { advanceClock, type DueWork } from './control/clock-work.ts';
import { isControlPath, serveControl } from './control/serve.ts';
import { checkControlLock } from './control/control-lock-error.ts';
import { SandboxHttpError, SandboxRefusal } from './errors.ts';
import { AnswerDrift, type AnswerDriftRules } from './answer-drift.ts';
import { FaultPlan, type FaultKind, type FaultRules } from './faults.ts';
import { IdSource } from './ids.ts';
import { Notifier } from './notifier.ts';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type SandboxOptions } from './options.ts';
import { SeededRandom } from './random.ts';
import { DEFAULT_REDIRECT_EXPIRY_MS, type SandboxDeps } from './lifecycle/deps.ts';
import { expireDuePayments } from './lifecycle/redirect-payment.ts';
import { isShopperPath, serveShopperPage } from './pages/shopper-routes.ts';
import { hostAllowed, hostRefusal } from './server/allowed-hosts.ts';
import { readBody } from './server/read-body.ts';
import { refusalRecord, refuseIncompletePayment } from './server/refusals.ts';
import { HANDLERS, selectVariant, VARIANTS_BY_PATH } from './server/routes.ts';
import { writeResponse } from './server/write-response.ts';
import { serverLimits } from './server/limits.ts';
import { SandboxState, type NotificationDelivery, type ReceivedRequest } from './state.ts';
import { SqliteStateStore } from './store/sqlite-store.ts';
import { MEMORY_KEEPER, type StateKeeper, type StateNotKeptError } from './store/state-keeper.ts';
import { decodeRequestBody, encodeResponseBody, errorResponse, type EncodedResponse } from './wire/body.ts';
import { fieldsXmlCannotCarry } from './wire/unencodable-fields.ts';

/** A running sandbox: its address, its state, its faults, and how to stop it. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:40123` (the operations are under `/v1`). */
  readonly url: string;
  readonly port: number;
  /** Orders, subscriptions, payouts, notifications and the request log. */
  readonly state: SandboxState;
  /** Injects one-shot faults or replaces the random fault rules. */
  readonly faults: { inject(path: string, kind: FaultKind, times?: number): void; setRules(rules: FaultRules): void };
  /** Makes answers differ from the spec (added, dropped, retyped fields; a wrong signature): `set({})` turns it off. */
  readonly answerDrift: { set(rules: AnswerDriftRules): void };
  /** Moves the sandbox clock forward by `ms`, then expires due redirect payments and charges due subscriptions. */
  advanceClock(ms: number): DueWork;
  /** Empties the state (and the state file), cancels queued notification retries and one-shot faults; keeps the address. */
  reset(): void;
  /** What shopper pages, the expiry sweep and the control API act through (see lifecycle/redirect-payment.ts). */
  readonly deps: SandboxDeps;
  /** Resolves when every queued notification was delivered or gave up. */
  notificationsIdle(timeoutMs?: number): Promise<void>;
  /** Delivers a notification again with the same event id (by delivery id or event id); null when unknown. */
  resendNotification(id: number | string): NotificationDelivery | null;
  /** Stops listening and closes open connections. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function normaliseAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

function withoutSignature(record: WireRecord): WireRecord {
  const { encryption_data: _signature, ...unsigned } = record;
  return unsigned;
}

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The answer of a /v1 request whose changes the state file could not keep (a full disk): HTTP 503, nothing applied. */
function notKeptResponse(failure: StateNotKeptError): EncodedResponse {
  return errorResponse(503, `sandbox state file not writable: nothing of this request was applied; send it again later`, [{ path: 'stateFile', message: failure.message }]);
}

/** Starts a sandbox gateway on 127.0.0.1 implementing every /v1 operation of the spec. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkControlLock(options);
  const sandboxClock = new SandboxClock(options.clock);
  const clock = () => sandboxClock.now();
  const random = new SeededRandom(options.seed ?? 1);
  const reference = options.signer && options.verifier ? null : createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const signer: Signer = options.signer ?? reference!;
  const verifier: Verifier = options.verifier ?? reference!;
  const merchants = new Map((options.merchants ?? [SANDBOX_DEFAULT_MERCHANT]).map((m) => [m.merchantId, m.accountId]));
  const allowIps = new Set((options.allowIps ?? ['127.0.0.1', '::1']).map(normaliseAddress));
  const limits = serverLimits(options);
  const bodyLimits = { limit: limits.maxBodyBytes, idleMs: limits.bodyTimeoutMs };
  const state = new SandboxState();
  const ids = new IdSource(random, clock);
  const faults = new FaultPlan(options.faults ?? {}, options.seed ?? 1);
  const drift = new AnswerDrift(options.answerDrift);
  const notifier = new Notifier(state, clock, signer, options.notify);
  // After a write the file could not keep was undone: deliveries go on from what the file holds.
  const resumeDeliveries = (): void => {
    notifier.cancelPending();
    for (const delivery of state.notifications) notifier.resume(delivery);
  };
  const store = options.stateFile ? await SqliteStateStore.open(options.stateFile, { state, clock: sandboxClock, ids }, resumeDeliveries) : null;
  const keeper: StateKeeper = store ?? MEMORY_KEEPER;
  const validator = new RecordValidator();
  const validation = { unknownFields: options.unknownFields === 'accept' ? 'allow' : 'refuse' } as const;
  /** Sends the notification of a result (in a request or outside one): one signed event, `copies` deliveries of it. */
  const notify: SandboxNotify = (kind, url, key, record, operation, copies = 1) =>
    void notifier.send({ kind, url, key, record, operation, copies });
  const redirectExpiryMs = options.redirectExpiryMs ?? DEFAULT_REDIRECT_EXPIRY_MS;
  let baseUrl = '';
  /** Set once listening (the bound address is one of the allowed hosts); nothing is answered before. */
  let allowsHost: (header: string | undefined) => boolean = () => false;

  async function sign(operation: OperationName, record: WireRecord): Promise<WireRecord> {
    const op = operations[operation];
    if (op.responseSignature === 'none') return record;
    // A handler's answer has no encryption_data (one copy less); one that has is signed without it.
    const unsigned = Object.hasOwn(record, 'encryption_data') ? withoutSignature(record) : record;
    const message = createSignableMessage({ operation, record: unsigned, body: () => encodeResponseBody(op, unsigned).body });
    return { ...unsigned, encryption_data: await signer.sign(message) };
  }

  const deps: SandboxDeps = { state, clock, notify, signer, redirectExpiryMs };

  function logRequest(path: string, operation: string | null, processed: boolean, outcome: ReceivedRequest['outcome']): void {
    state.logRequest({ path, operation, at: clock(), processed, outcome });
  }

  /** The answer of a /v1 request, and the change count before its handler ran when it changed the state (else null). */
  interface Processed {
    readonly response: EncodedResponse;
    readonly changedAfter: number | null;
  }

  async function process(req: IncomingMessage, path: string, variants: OperationSpec[], body: Buffer, duplicateNotification: boolean): Promise<Processed> {
    const { record, encoding } = decodeRequestBody(variants[0]!, String(req.headers['content-type'] ?? ''), body);
    const op = selectVariant(variants, record);
    const merchantId = typeof record.merchant_id === 'string' ? record.merchant_id : '';
    const accountId = typeof record.account_id === 'string' ? record.account_id : '';
    if (op.responseEncoding !== 'json') {
      const unencodable = fieldsXmlCannotCarry(record);
      if (unencodable.length > 0) {
        logRequest(path, op.name, false, 'invalid');
        throw new SandboxHttpError(400, `${unencodable.length} field(s) the ${op.responseEncoding.toUpperCase()} answer cannot echo`, unencodable);
      }
    }
    try {
      if (op.batch && !op.batch.separator && Array.isArray(record[op.batch.array]) && (record[op.batch.array] as unknown[]).length > op.batch.limit) {
        const count = (record[op.batch.array] as unknown[]).length;
        throw new SandboxRefusal('E002', `${op.batch.array} carries ${count} orders; at most ${op.batch.limit} per request`);
      }
      const problems = validator.requestProblems(op.name as OperationName, record, validation);
      if (problems.length > 0) {
        logRequest(path, op.name, false, 'invalid');
        throw new SandboxHttpError(400, `${problems.length} problem(s) in ${op.requestSchema}`, problems.map((p) => ({ path: p.field, message: p.message })));
      }
      if (op.ipAllowListed && !allowIps.has(normaliseAddress(req.socket.remoteAddress))) {
        logRequest(path, op.name, false, 'refused');
        throw new SandboxHttpError(403, `${normaliseAddress(req.socket.remoteAddress)} is not registered for ${op.path} (seed 5.4)`);
      }
      if (merchants.get(merchantId) !== accountId) throw new SandboxRefusal('E001', 'unknown merchant_id or account_id');
      const signature = record.encryption_data;
      // A body-based verifier sees the body re-encoded as it came, without encryption_data: JSON, or a form where the
      // seed declares no type (U31). The message's fields leave encryption_data out themselves: no copy for them.
      const bodyEncoding = encoding === 'form' && op.requestEncoding !== 'form' ? { encoding: 'form' as const } : {};
      const message = createSignableMessage({ operation: op.name as OperationName, record, body: () => encodeRequestBody(op.name as OperationName, withoutSignature(record), bodyEncoding) });
      if (typeof signature !== 'string' || !(await verifier.verify(message, signature))) throw new SandboxRefusal('E003', 'encryption_data does not verify');
      refuseIncompletePayment(op, record);
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) throw error;
      logRequest(path, op.name, false, 'refused');
      if (op.responseEncoding === 'html') throw new SandboxHttpError(403, `${error.code}:${error.message}`);
      return { response: encodeResponseBody(op, await sign(op.name as OperationName, refusalRecord(op, record, error, { merchantId, accountId }))), changedAfter: null };
    }
    const ctx: HandlerContext = {
      state,
      clock,
      ids,
      merchantId,
      accountId,
      remoteAddress: normaliseAddress(req.socket.remoteAddress),
      baseUrl,
      redirectExpiryMs,
      notify: (kind, url, key, payload) => notify(kind, url, key, payload, op.name, duplicateNotification ? 2 : 1),
    };
    let result: WireRecord | null;
    // Handlers are synchronous: the changes counted across the call are this request's own.
    const before = keeper.changeCount;
    try {
      result = HANDLERS[op.name as OperationName](record, ctx);
    } catch (error) {
      if (error instanceof SandboxHttpError) logRequest(path, op.name, false, 'refused');
      throw error;
    }
    logRequest(path, op.name, true, 'ok');
    if (result === null) throw new SandboxHttpError(409, `1001:order_no ${String(record.order_no)} already used on this account`);
    const response = encodeResponseBody(op, op.responseEncoding === 'html' ? result : drift.signature(op.name, await sign(op.name as OperationName, drift.fields(op.name, result))));
    return { response, changedAfter: keeper.changeCount === before ? null : before };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req.url);
    // First, on every route: a Host that is not the sandbox's is a page rebound to 127.0.0.1 (or a missing Host).
    if (!allowsHost(req.headers.host)) return void setImmediate(writeResponse, res, hostRefusal(path, req.headers.host));
    // Shopper pages, the control API and the console all live under /sandbox: one prefix check for every /v1 request.
    if (path.startsWith('/sandbox')) {
      if (isShopperPath(path)) return serveShopperPage(deps, keeper, req, res, path, limits.bodyTimeoutMs);
      if (control && isControlPath(path)) return serveControl(control, req, res);
    }
    const variants = VARIANTS_BY_PATH.get(path);
    let response: EncodedResponse;
    let changedAfter: number | null = null;
    if (!variants) response = errorResponse(404, `no operation at ${path}`);
    else if (req.method !== 'POST') response = errorResponse(405, `${path} takes POST only`);
    else {
      const fault = faults.decide(path);
      // The body is read first, then the latency (the gateway's processing time) passes: a request the sandbox has
      // received is processed even if its client has gone meanwhile (killed, or gave up), as a real gateway's would be.
      const body = await readBody(req, bodyLimits).catch((error: unknown) => error as Error);
      if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault.kind === 'reset-before') {
        logRequest(path, null, false, 'reset-before');
        req.socket.destroy();
        return;
      }
      try {
        if (body instanceof Error) throw body;
        if (fault.kind === 'http-5xx') {
          logRequest(path, null, false, 'http-5xx');
          response = errorResponse(503, 'sandbox fault: service unavailable (nothing was processed)');
        } else ({ response, changedAfter } = await process(req, path, variants, body, fault.duplicateNotification));
      } catch (error) {
        if (error instanceof SandboxHttpError) {
          response = errorResponse(error.status, error.message, error.errors);
          if (error.closeAfter) res.setHeader('connection', 'close');
        }
        else {
          state.internalErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
          response = errorResponse(500, 'sandbox internal error');
        }
      }
      if (fault.kind === 'reset-after') {
        req.socket.destroy();
        return;
      }
    }
    // An answer that reports a change is written once the state file kept it; 503 when it could not (then undone).
    if (changedAfter === null) setImmediate(writeResponse, res, response);
    else keeper.afterKept(changedAfter, (failure) => writeResponse(res, failure ? notKeptResponse(failure) : response));
  }

  const reset = (): void => {
    notifier.cancelPending();
    faults.clearQueued();
    state.clear();
  };
  const advance = (ms: number): DueWork => {
    const work = advanceClock({ state, clock: sandboxClock, ids, notify, redirect: deps }, ms);
    store?.schedule();
    return work;
  };
  const control: ControlDeps | null =
    options.control === false ? null : { state, clock: sandboxClock, ids, faults, drift, notifier, notify, redirect: deps, keeper, reset, advanceClock: advance, controlToken: options.controlToken ?? null, maxBodyBytes: limits.maxBodyBytes, bodyTimeoutMs: limits.bodyTimeoutMs };

  const server = createServer(limits.serverOptions, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      state.internalErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.maxConnections = limits.maxConnections;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    store?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;
  allowsHost = hostAllowed({ listening: [options.host ?? '127.0.0.1', address.address], allowedHosts: options.allowedHosts ?? [] });
  // Notifications a state file held that were neither delivered nor out of attempts go on where they stopped.
  if (store) for (const delivery of state.notifications) notifier.resume(delivery);

  // Abandoned redirect payments expire on this sweep (unref'd: it never keeps the process alive).
  const sweep = setInterval(() => {
    try {
      expireDuePayments(deps, clock());
    } catch (error) {
      state.internalErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  }, Math.max(10, Math.min(1000, Math.floor(redirectExpiryMs / 4))));
  sweep.unref();

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= new Promise<void>((resolve) => {
      clearInterval(sweep);
      notifier.stop();
      store?.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return stopped;
  };
  return {
    url: baseUrl,
    port: address.port,
    state,
    deps,
    faults: { inject: (path, kind, times) => faults.inject(path, kind, times), setRules: (rules) => faults.setRules(rules) },
    answerDrift: { set: (rules) => drift.set(rules) },
    advanceClock: advance,
    reset,
    notificationsIdle: (timeoutMs) => notifier.idle(timeoutMs),
    resendNotification: (id) => notifier.resend(id),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
