// A SERVER span per exchange and the drift and exchange counters, while an OpenTelemetry SDK is registered. The API is
// an optional peer: without it, or without an SDK, an exchange pays one check (`traceExchange` answering null) and
// allocates nothing. What goes in is what the drift report holds (redacted findings), never a body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as Otel from '@opentelemetry/api';
import { operationsByPath, serverAttributes, lazyTelemetryGate } from '@gw/types';
import { pathShape } from '../redact/report-redaction.ts';
import type { DriftFinding } from '../report/drift-recorder.ts';

interface Instruments {
  readonly drift: Otel.Counter;
  readonly exchanges: Otel.Counter;
}

// Made at its first use, so that loading the package loads no OpenTelemetry.
const openGate = lazyTelemetryGate<typeof Otel, Otel.Tracer, Otel.Meter, Instruments, Otel.Context>({
  fromUrl: import.meta.url,
  name: '@gw/proxy',
  instruments: (meter) => ({
    drift: meter.createCounter('gw.proxy.drift', { unit: '{finding}', description: 'Drift from the spec found in exchanges, by operation and drift kind' }),
    exchanges: meter.createCounter('gw.proxy.exchanges', { unit: '{exchange}', description: 'Exchanges forwarded, by operation and HTTP status' }),
  }),
});

/**
 * One exchange's telemetry: it ends once its answer was written (or its connection closed) and its check finished
 * (drift known), whichever is later; the span ends at the answer's time, so the check's time is not the exchange's.
 */
export class TracedExchange {
  readonly #span: Otel.Span | null;
  readonly #instruments: Instruments | null;
  readonly #startedAt = performance.now();
  #upstreamMs: number | null = null;
  #answeredAt = 0;
  #status: number | null = null;
  #operation: string | null = null;
  #pending = 2;
  readonly #kinds = new Set<string>();
  #findings = 0;

  constructor(span: Otel.Span | null, instruments: Instruments | null) {
    this.#span = span;
    this.#instruments = instruments;
  }

  /** The upstream's answer ended: the upstream's time, from the request's arrival to the answer's last byte. */
  upstreamEnded(): void {
    this.#upstreamMs = performance.now() - this.#startedAt;
  }

  /** A drift finding of this exchange's check (already redacted): counted, and an event on the span. */
  finding(finding: DriftFinding): void {
    this.#findings += 1;
    this.#kinds.add(finding.kind);
    this.#instruments?.drift.add(1, { 'gw.operation': finding.operation, 'gw.drift.kind': finding.kind });
    this.#span?.addEvent('gw.proxy.drift', { 'gw.drift.kind': finding.kind, 'gw.drift.side': finding.side, 'gw.drift.path': finding.path });
  }

  /**
   * The connection is done with the answer: its status when one was written (null: reset or cut). Without an upstream
   * answer that ended (unreachable, cut at the deadline, a client gone) no check follows: the exchange ends now.
   */
  answered(res: ServerResponse): void {
    this.#answeredAt = performance.now();
    this.#status = res.headersSent ? res.statusCode : null;
    if (this.#upstreamMs === null) this.#pending -= 1;
    this.#settle();
  }

  /** The check finished (or none ran): the operation it found (null for none). */
  checked(operation: string | null): void {
    this.#operation = operation;
    this.#settle();
  }

  #settle(): void {
    // Exactly once: a check that still came after an answer without an upstream end changes nothing.
    if (--this.#pending !== 0) return;
    const status = this.#status;
    this.#instruments?.exchanges.add(1, {
      'gw.operation': this.#operation ?? '(none)',
      ...(status === null ? { 'error.type': 'connection-closed' } : { 'http.response.status_code': status }),
    });
    const span = this.#span;
    if (span === null) return;
    if (span.isRecording()) this.#describe(span, status);
    span.end(this.#answeredAt);
  }

  #describe(span: Otel.Span, status: number | null): void {
    if (this.#operation !== null) span.setAttribute('gw.operation', this.#operation);
    if (status !== null) span.setAttribute('http.response.status_code', status);
    if (this.#upstreamMs !== null) span.setAttribute('gw.proxy.upstream.duration', this.#upstreamMs / 1000);
    span.setAttribute('gw.proxy.drift.count', this.#findings);
    if (this.#kinds.size > 0) span.setAttribute('gw.proxy.drift.kinds', [...this.#kinds].sort());
    const errorType = status === null ? 'connection-closed' : status >= 500 ? String(status) : null;
    if (errorType !== null) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: openGate()!.api.SpanStatusCode.ERROR });
    }
  }
}

/**
 * Starts an exchange's telemetry, or null while no SDK is registered (the one check an exchange makes). At a path of
 * the spec the span is named `POST /v1/capture`; elsewhere by the method alone, its path by its shape (it may carry anything).
 */
export function traceExchange(req: IncomingMessage, res: ServerResponse, path: string): TracedExchange | null {
  const now = openGate()?.now() ?? null;
  if (now === null) return null;
  let span: Otel.Span | null = null;
  if (now.tracer !== null) {
    const route = operationsByPath.has(path) ? path : null;
    const method = req.method ?? 'GET';
    const attributes: Otel.Attributes = {
      'http.request.method': method,
      'url.path': route ?? pathShape(path),
      'url.scheme': 'http',
      ...serverAttributes(req.headers.host),
    };
    if (route !== null) attributes['http.route'] = route;
    span = now.tracer.startSpan(
      route === null ? method : `${method} ${route}`,
      { kind: openGate()!.api.SpanKind.SERVER, attributes },
      openGate()!.parentOf(req.headers),
    );
  }
  const traced = new TracedExchange(span, now.instruments);
  res.once('close', () => traced.answered(res));
  return traced;
}
