// A SERVER span per /v1 exchange while an OpenTelemetry SDK is registered (the API is an optional peer: without it,
// or without an SDK, a request pays one check, `traceExchange` answering null). Its parent is the request's trace
// context (`traceparent`, or the application's registered propagator). Nothing of a body goes in.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as Otel from '@opentelemetry/api';
import { serverAttributes, lazyTelemetryGate, type OperationSpec } from '@gw/types';
import type { FaultDecision } from '../faults/fault-plan.ts';
import type { V1Call } from './v1-call.ts';

// Made at its first use, so that loading the package loads no OpenTelemetry.
const openGate = lazyTelemetryGate<typeof Otel, Otel.Tracer, Otel.Meter, null, Otel.Context>({
  fromUrl: import.meta.url,
  name: '@gw/sandbox',
  instruments: () => null,
});

/** A /v1 exchange being traced: its span, and the call once its body was read (its operation is known after decoding). */
export interface TracedExchange {
  readonly span: Otel.Span;
  call: V1Call | null;
}

/** The fault a span reports: the route's fault kind, else `latency` when only latency was added; null for none. */
function faultOf(fault: FaultDecision): string | null {
  return fault.kind ?? (fault.duplicateNotification ? 'duplicate-notification' : fault.latencyMs > 0 ? 'latency' : null);
}

/** Ends the span once the connection is done with the answer: its status, or a reset when none was written. */
function endExchange(traced: TracedExchange, res: ServerResponse, variants: readonly OperationSpec[]): void {
  const { span } = traced;
  if (span.isRecording()) describeAnswer(span, traced.call, res, variants);
  span.end();
}

/** The answer's attributes: the operation the record was, its status, throttled or not, an error type. */
function describeAnswer(span: Otel.Span, call: V1Call | null, res: ServerResponse, variants: readonly OperationSpec[]): void {
  const answered = res.headersSent;
  span.setAttribute('gw.operation', (call?.op ?? variants[0]!).name);
  if (answered) {
    span.setAttribute('http.response.status_code', res.statusCode);
    span.setAttribute('gw.sandbox.throttled', res.statusCode === 429);
  }
  const errorType = !answered ? 'connection-reset' : res.statusCode >= 500 ? String(res.statusCode) : null;
  if (errorType !== null) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: openGate()!.api.SpanStatusCode.ERROR });
  }
}

/** Starts the span of a POST to a /v1 path, or null while no SDK is registered (the one check a request makes). */
export function traceExchange(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  variants: readonly OperationSpec[],
  fault: FaultDecision,
): TracedExchange | null {
  const tracer = openGate()?.now()?.tracer ?? null;
  if (!tracer) return null;
  const attributes: Otel.Attributes = {
    'http.request.method': 'POST',
    'http.route': path,
    'url.path': path,
    'url.scheme': 'http',
    ...serverAttributes(req.headers.host),
  };
  const applied = faultOf(fault);
  if (applied !== null) attributes['gw.sandbox.fault'] = applied;
  if (fault.latencyMs > 0) attributes['gw.sandbox.latency_ms'] = Math.round(fault.latencyMs);
  const span = tracer.startSpan(`POST ${path}`, { kind: openGate()!.api.SpanKind.SERVER, attributes }, openGate()!.parentOf(req.headers));
  const traced: TracedExchange = { span, call: null };
  res.once('close', () => endExchange(traced, res, variants));
  return traced;
}
