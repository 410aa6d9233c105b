// OpenTelemetry for a library, off at the cost of one check: the API is an optional peer (loaded with optionalPeer),
// and while no SDK is registered a request reads two globals and compares them to the no-op providers, allocating
// nothing. Typed by generics so that no OpenTelemetry type appears in @gw/types' own declarations.
import type * as Otel from '@opentelemetry/api';
import { optionalPeer } from './optional-peer.ts';

/** The W3C trace context of a `traceparent` header (version 00): ids in lower-case hex, sampled flag in `traceFlags`. */
export interface TraceParent {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote: true;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Parses a `traceparent` header (W3C Trace Context level 1): null when absent, malformed, version `ff`, an all-zero
 * id, or version 00 with anything after the flags. A later version's extra fields are ignored, as the standard asks.
 */
export function parseTraceparent(header: string | readonly string[] | undefined): TraceParent | null {
  if (typeof header !== 'string') return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 1, isRemote: true };
}

/**
 * `server.address` and `server.port` of the HTTP server conventions from a Host header (`host[:port]`, `[v6]:port`, the address without brackets);
 * empty when there is none.
 */
export function serverAttributes(host: string | undefined): { 'server.address'?: string; 'server.port'?: number } {
  const match = host === undefined ? null : /^(?:\[([^\]]*)\]|([^:]*))(?::(\d{1,5}))?$/.exec(host);
  const address = match?.[1] ?? match?.[2];
  if (!address) return {};
  return match![3] === undefined ? { 'server.address': address } : { 'server.address': address, 'server.port': Number(match![3]) };
}

/** A package's tracer and instruments while an SDK is registered; each null while its kind of provider is not. */
export interface TelemetryNow<Tracer, Instruments> {
  readonly tracer: Tracer | null;
  readonly instruments: Instruments | null;
}

/** The OpenTelemetry API as a package loaded it, and the one check it makes per request. */
export interface TelemetryGate<Api, Tracer, Instruments, Context> {
  /** The `@opentelemetry/api` module. */
  readonly api: Api;
  /** The tracer and instruments in force, or null while neither a tracer nor a meter provider is registered. */
  now(): TelemetryNow<Tracer, Instruments> | null;
  /**
   * The parent of a request's server span: the active context when it holds a span (an HTTP instrumentation's server
   * span); else the request's trace context, read by the application's registered propagator when there is one, else
   * from `traceparent` (`parseTraceparent`); else the active context (a root span).
   */
  parentOf(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Context;
}

/** What `telemetryGate` needs: the package's scope and how it makes its metric instruments from a meter. */
export interface TelemetryScope<Meter, Instruments> {
  /** The caller's `import.meta.url`: the API is loaded as the caller resolves it. */
  readonly fromUrl: string;
  /** The tracer and meter name: the package's name, e.g. `@gw/sandbox`. */
  readonly name: string;
  /** The package's version, when it knows it. */
  readonly version?: string;
  /** Makes the package's instruments (counters, histograms) once per meter provider. */
  readonly instruments: (meter: Meter) => Instruments;
}

const getter: Otel.TextMapGetter<Readonly<Record<string, string | readonly string[] | undefined>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()] as string | string[] | undefined,
};

/**
 * The OpenTelemetry gate of a package: null when `@opentelemetry/api` is not installed. Type it with the API's own
 * types inside the package: `telemetryGate<typeof import('@opentelemetry/api'), Tracer, Meter, Instruments, Context>`.
 */
export function telemetryGate<Api, Tracer, Meter, Instruments, Context>(
  scope: TelemetryScope<Meter, Instruments>,
): TelemetryGate<Api, Tracer, Instruments, Context> | null {
  const api = optionalPeer<typeof Otel>(scope.fromUrl, '@opentelemetry/api');
  if (api === null) return null;
  // The API's own no-op providers: what it answers while nothing is registered.
  const noopTracerProvider = new api.ProxyTracerProvider().getDelegate();
  const noopMeter = api.createNoopMeter();
  let tracerProvider: unknown = noopTracerProvider;
  let meterProvider: unknown = null;
  let current: { tracer: Otel.Tracer | null; instruments: Instruments | null } = { tracer: null, instruments: null };
  const now = (): TelemetryNow<Tracer, Instruments> | null => {
    const proxy = api.trace.getTracerProvider() as Otel.TracerProvider & { getDelegate?: () => Otel.TracerProvider };
    const tracing = typeof proxy.getDelegate === 'function' ? proxy.getDelegate() : proxy;
    const metering = api.metrics.getMeterProvider();
    if (tracing === tracerProvider && metering === meterProvider)
      return current.tracer === null && current.instruments === null ? null : (current as TelemetryNow<Tracer, Instruments>);
    // A provider was registered or taken away since the last request: the tracer and instruments are made anew, once.
    const meter = metering.getMeter(scope.name, scope.version);
    current = {
      tracer: tracing === noopTracerProvider ? null : tracing.getTracer(scope.name, scope.version),
      instruments: meter === noopMeter ? null : scope.instruments(meter as Meter),
    };
    tracerProvider = tracing;
    meterProvider = metering;
    return current.tracer === null && current.instruments === null ? null : (current as TelemetryNow<Tracer, Instruments>);
  };
  const parentOf = (headers: Readonly<Record<string, string | readonly string[] | undefined>>): Context => {
    const active = api.context.active();
    if (api.trace.getSpan(active) !== undefined) return active as Context;
    if (api.propagation.fields().length > 0) return api.propagation.extract(active, headers, getter) as Context;
    const parent = parseTraceparent(headers.traceparent);
    return (parent === null ? active : api.trace.setSpanContext(active, parent)) as Context;
  };
  return { api: api as Api, now, parentOf };
}

/**
 * `telemetryGate` made at its first use, so that loading a package (a CLI's `--help`, `--version`) loads no
 * OpenTelemetry: call the function it returns where the gate is needed; it makes the gate once (null without the API).
 */
export function lazyTelemetryGate<Api, Tracer, Meter, Instruments, Context>(
  scope: TelemetryScope<Meter, Instruments>,
): () => TelemetryGate<Api, Tracer, Instruments, Context> | null {
  let gate: TelemetryGate<Api, Tracer, Instruments, Context> | null | undefined;
  return () => (gate === undefined ? (gate = telemetryGate<Api, Tracer, Meter, Instruments, Context>(scope)) : gate);
}
