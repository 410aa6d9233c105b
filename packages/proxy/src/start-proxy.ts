import { Agent, createServer } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CALL_TIMEOUT_MS, RecordValidator, serverLimits } from '@gw/types';
import { checkExchange, type CheckContext } from './check/check-exchange.ts';
import type { Exchange, ExchangeTiming, RequestPace } from './check/exchange.ts';
import { forward, type ForwardTarget } from './forward/forward.ts';
import type { ProxyOptions } from './options.ts';
import { DriftRecorder } from './report/drift-recorder.ts';
import { ReportFile } from './report/report-file.ts';
import { RequestRate } from './report/request-rate.ts';
import { traceExchange, type TracedExchange } from './telemetry/exchange-telemetry.ts';
import type { DriftReport } from './report/report-types.ts';

/** A running checking proxy. */
export interface Proxy {
  /** Its base address, e.g. `http://127.0.0.1:40124`: give it to the client as `baseUrl`. */
  readonly url: string;
  readonly port: number;
  /** The report so far (the same object the report file is written from). */
  readonly report: DriftReport;
  /** Resolves once every exchange answered so far has been checked and the report file written. */
  settled(): Promise<void>;
  /** Stops listening, closes connections, checks what is pending and writes the report a last time. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The upstream as a URL, or a TypeError naming what is wrong with it. */
function upstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`upstream ${JSON.stringify(text)} is not an absolute URL (e.g. https://gateway.example)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`upstream ${text} must be http: or https:`);
  return url;
}

/** The whole-answer deadline of an exchange when none is given (UNKNOWNS U56): twice the client's own 30 s time limit. */
export const DEFAULT_UPSTREAM_DEADLINE_MS = 60_000;

/** A positive whole number of ms, the fallback when absent, or a TypeError naming the option. */
function wholeMs(value: number | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0 || value > 2_147_483_647)
    throw new TypeError(`${option} must be a whole number of ms from 1 to 2147483647, not ${String(value)}`);
  return value;
}

/** Checks an exchange; with telemetry, its drift findings are told to it, which ends once the check has. */
function checkOne(exchange: Exchange, ctx: CheckContext, timing: ExchangeTiming, traced: TracedExchange | null): string | Promise<string> {
  if (traced === null) return checkExchange(exchange, ctx, timing);
  // Checks run one after another: the recorder's findings until this one ends are this exchange's.
  ctx.recorder.onFinding = (finding) => traced.finding(finding);
  const done = (operation: string | null): void => {
    ctx.recorder.onFinding = null;
    traced.checked(operation);
  };
  let operation: string | Promise<string>;
  try {
    operation = checkExchange(exchange, ctx, timing);
  } catch (error) {
    done(null);
    throw error;
  }
  if (typeof operation === 'string') {
    done(operation);
    return operation;
  }
  return operation.then(
    (name) => (done(name), name),
    (error: unknown) => {
      done(null);
      throw error;
    },
  );
}

/** Starts a proxy on 127.0.0.1 that forwards every request to the upstream unchanged and checks `/v1` exchanges against the spec. */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const upstream = upstreamUrl(options.upstream);
  const limits = serverLimits(options);
  const recorder = new DriftRecorder(upstream.origin + upstream.pathname.replace(/\/$/, ''), options.verifier !== undefined);
  const file = options.reportFile ? new ReportFile(options.reportFile, recorder.report) : null;
  const ctx: CheckContext = { recorder, validator: new RecordValidator(), verifier: options.verifier ?? null, maxInputBytes: limits.maxBodyBytes };
  const agentOptions = { keepAlive: true, maxSockets: limits.maxConnections };
  const target: ForwardTarget = {
    upstream,
    agent: upstream.protocol === 'https:' ? new HttpsAgent(agentOptions) : new Agent(agentOptions),
    captureLimit: limits.maxBodyBytes,
    timeoutMs: options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    deadlineMs: wholeMs(options.upstreamDeadlineMs, 'upstreamDeadlineMs', DEFAULT_UPSTREAM_DEADLINE_MS),
    onDeadline: () => {
      recorder.deadline();
      file?.changed();
    },
  };
  // Checks run after the answer was written (never on the traffic's path), one after another: at once, unless an
  // asynchronous verifier's check is still pending, behind which the next ones wait their turn.
  let pending: Promise<void> | null = null;
  const checked = () => file?.changed();
  const check = (exchange: Exchange, pace: RequestPace | null, traced: TracedExchange | null): void => {
    options.onExchange?.(exchange);
    if (!exchange.path.startsWith('/v1/') || !pace) return traced?.checked(null);
    const timing: ExchangeTiming = { answeredAt: Date.now(), pace };
    let later: string | Promise<string>;
    try {
      later = pending ? pending.then(() => checkOne(exchange, ctx, timing, traced)) : checkOne(exchange, ctx, timing, traced);
    } catch {
      return; // a fault of the check: the traffic went through, the report misses this exchange, the proxy goes on
    }
    if (typeof later === 'string') return checked();
    const chained: Promise<void> = later
      .then(checked, () => undefined)
      .then(() => {
        if (pending === chained) pending = null;
      });
    pending = chained;
  };
  // The pace is counted as each request starts (a monotonic clock), so a throttle knows what came before it even
  // when those answers come later.
  const rate = new RequestRate();
  const server = createServer(limits.serverOptions, (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const pace = path.startsWith('/v1/') ? rate.arrived(path, performance.now()) : null;
    // With an OpenTelemetry SDK registered, the exchange's span and counts; else null, one check.
    const traced = traceExchange(req, res, path);
    if (traced === null) forward(req, res, target, (exchange) => check(exchange, pace, null));
    else forward(req, res, target, (exchange) => (traced.upstreamEnded(), check(exchange, pace, traced)));
  });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  file?.changed();
  const settled = async (): Promise<void> => {
    await pending;
    await file?.flush();
  };
  const stop = async (): Promise<void> => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    target.agent.destroy();
    await settled();
  };
  return { url: `http://127.0.0.1:${port}`, port, report: recorder.report, settled, stop, [Symbol.asyncDispose]: stop };
}
