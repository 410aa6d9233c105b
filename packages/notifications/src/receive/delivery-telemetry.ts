// A SERVER span and a count per delivery, while an OpenTelemetry SDK is registered (the API is an optional peer:
// without it, or without an SDK, a delivery pays one check). Only the envelope's identifiers go in: never the body,
// the signature, the secret or card data.
import type * as Otel from '@opentelemetry/api';
import { serverAttributes, lazyTelemetryGate } from '@gw/types';
import { NotificationRefusedError } from '../errors.ts';
import type { HeaderSource } from '../format/format.ts';
import type { ReceiverAnswer, ReceiverOutcome } from './answer.ts';

/** What a delivery's span and count say it came to. */
export type DeliveryResult = 'handled' | 'duplicate' | 'in-progress' | 'refused' | 'handler-failed';

const RESULT: Record<ReceiverOutcome, DeliveryResult> = {
  processed: 'handled',
  duplicate: 'duplicate',
  'in-progress': 'in-progress',
  refused: 'refused',
  failed: 'handler-failed',
};

interface Instruments {
  readonly deliveries: Otel.Counter;
}

// Made at its first use, so that loading the package loads no OpenTelemetry.
const openGate = lazyTelemetryGate<typeof Otel, Otel.Tracer, Otel.Meter, Instruments, Otel.Context>({
  fromUrl: import.meta.url,
  name: '@gw/notifications',
  instruments: (meter) => ({
    deliveries: meter.createCounter('gw.notifications.deliveries', {
      unit: '{delivery}',
      description: 'Notification deliveries received, by result and event kind',
    }),
  }),
});

/** The HTTP request a delivery came in, for the server conventions' attributes (absent for `handle`). */
export interface DeliveryRequest {
  readonly method: string;
  /** The request target's path, without its query. */
  readonly path: string;
  /** The Host header, as `host[:port]`. */
  readonly host: string | undefined;
  /** The request's headers: its trace context is the span's parent when no span is active (no HTTP instrumentation). */
  readonly headers: HeaderSource;
}

/** One delivery being traced: its span (when tracing) and the instruments (when metering). */
export interface TracedDelivery {
  readonly span: Otel.Span | null;
  readonly instruments: Instruments | null;
  readonly context: Otel.Context;
}

/** The span name: `POST <route>` with a route, the method alone over HTTP without one, `notification` for `handle`. */
function spanName(request: DeliveryRequest | null, route: string | undefined): string {
  const method = request?.method ?? 'POST';
  if (route !== undefined) return `${method} ${route}`;
  return request ? method : 'notification';
}

function httpAttributes(request: DeliveryRequest, route: string | undefined): Otel.Attributes {
  const attributes: Otel.Attributes = { 'http.request.method': request.method, 'url.path': request.path, ...serverAttributes(request.host) };
  if (route !== undefined) attributes['http.route'] = route;
  return attributes;
}

/** Headers as a plain record (WHATWG `Headers` copied), for the trace context propagator. */
function headerRecord(headers: HeaderSource): Readonly<Record<string, string | readonly string[] | undefined>> {
  return typeof (headers as Headers).entries === 'function' && typeof (headers as Headers).get === 'function'
    ? Object.fromEntries((headers as Headers).entries())
    : (headers as Readonly<Record<string, string | readonly string[] | undefined>>);
}

/** Starts a delivery's telemetry, or null while no SDK is registered (the one check a delivery makes). */
export function startDelivery(facts: (() => DeliveryRequest) | null, route: string | undefined): TracedDelivery | null {
  const now = openGate()?.now() ?? null;
  if (now === null) return null;
  const { api } = openGate()!;
  const active = api.context.active();
  if (now.tracer === null) return { span: null, instruments: now.instruments, context: active };
  const request = facts === null ? null : facts();
  const attributes = request ? httpAttributes(request, route) : {};
  const parent = request ? openGate()!.parentOf(headerRecord(request.headers)) : active;
  const span = now.tracer.startSpan(spanName(request, route), { kind: api.SpanKind.SERVER, attributes }, parent);
  return { span, instruments: now.instruments, context: api.trace.setSpan(parent, span) };
}

/** Runs `work` with the delivery's span as the active one: the handler's own spans are its children. */
export function withinDelivery<T>(delivery: TracedDelivery, work: () => T): T {
  return openGate()!.api.context.with(delivery.context, work);
}

/** `error.type`: a gw error's code (a refusal's `GW_SIGNATURE`, `GW_DECODE`), else the error's class name, never its message. */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('GW_')) return code;
  return error instanceof Error ? error.name : '_OTHER';
}

/** Ends a delivery's telemetry with its answer: the result, the event's identifiers, the refusal's code. */
export function endDelivery(delivery: TracedDelivery, answer: ReceiverAnswer, overHttp: boolean): void {
  const result = RESULT[answer.outcome];
  const kind = answer.event?.kind;
  const errorType = result === 'refused' || result === 'handler-failed' ? errorTypeOf(answer.error) : undefined;
  delivery.instruments?.deliveries.add(1, {
    'gw.notification.result': result,
    ...(kind ? { 'gw.notification.kind': kind } : {}),
    ...(errorType ? { 'error.type': errorType } : {}),
  });
  const span = delivery.span;
  if (span === null) return;
  if (span.isRecording()) {
    const event = answer.event;
    span.setAttribute('gw.notification.result', result);
    if (overHttp) span.setAttribute('http.response.status_code', answer.status);
    if (event) {
      span.setAttributes({ 'gw.notification.id': event.id, 'gw.notification.kind': event.kind, 'gw.operation': event.operation });
      const data = event.data as { order_no?: unknown; transaction_id?: unknown };
      if (typeof data.order_no === 'string') span.setAttribute('gw.order_no', data.order_no);
      if (typeof data.transaction_id === 'string') span.setAttribute('gw.transaction_id', data.transaction_id);
    }
    if (answer.error instanceof NotificationRefusedError) span.setAttribute('gw.notification.refusal', answer.error.reason);
    if (errorType) {
      span.setAttribute('error.type', errorType);
      // The status message names the case, never the error's message (a handler's message may quote anything).
      span.setStatus({ code: openGate()!.api.SpanStatusCode.ERROR, message: errorType });
    }
  }
  span.end();
}
