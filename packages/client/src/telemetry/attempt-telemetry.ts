import type * as Otel from '@opentelemetry/api';
import { attemptOutcome, errorType } from './attempt-outcome.ts';
import { ATTR } from './conventions.ts';

/** What an attempt's telemetry knows of its request before it is sent. */
export interface AttemptFacts {
  readonly operation: string;
  /** The path template from the operation table, e.g. `/v1/capture`. */
  readonly template: string;
  readonly urlFull: string;
  readonly serverAddress: string;
  readonly serverPort: number;
  /** 1 for the first try. */
  readonly attempt: number;
  /** Orders in a batch request, or null. */
  readonly orders: number | null;
}

/** One try's span and duration point: headers to add before sending, the status when it answers, the end. */
export class AttemptTelemetry {
  readonly #api: typeof Otel;
  /** Null while only a meter provider is registered. */
  readonly #span: Otel.Span | null;
  readonly #histogram: Otel.Histogram | null;
  readonly #propagate: boolean;
  readonly #metricAttributes: Otel.Attributes;
  readonly #started = performance.now();
  #status: number | undefined;

  constructor(api: typeof Otel, span: Otel.Span | null, histogram: Otel.Histogram | null, propagate: boolean, facts: AttemptFacts) {
    this.#api = api;
    this.#span = span;
    this.#histogram = histogram;
    this.#propagate = propagate;
    this.#metricAttributes = {
      [ATTR.method]: 'POST',
      [ATTR.serverAddress]: facts.serverAddress,
      [ATTR.serverPort]: facts.serverPort,
      [ATTR.urlTemplate]: facts.template,
      [ATTR.operation]: facts.operation,
    };
    if (span?.isRecording()) {
      span.setAttributes({ ...this.#metricAttributes, [ATTR.urlFull]: facts.urlFull });
      if (facts.attempt > 1) span.setAttribute(ATTR.resendCount, facts.attempt - 1);
      if (facts.orders !== null) span.setAttribute(ATTR.orders, facts.orders);
    }
  }

  /** The request's headers, with `traceparent` (and `tracestate`) naming this span when propagation is on. */
  headers(base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    if (!this.#propagate || this.#span === null) return base;
    const context = this.#span.spanContext();
    if (!this.#api.isSpanContextValid(context)) return base;
    const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
    const headers: Record<string, string> = { ...base, traceparent: `00-${context.traceId}-${context.spanId}-${flags}` };
    const state = context.traceState?.serialize();
    if (state) headers.tracestate = state;
    return headers;
  }

  /** The gateway answered with `status`. */
  answered(status: number): void {
    this.#status = status;
  }

  /** Ends the try: `error` is what it failed with, null when the call returned the gateway's answer. Never throws. */
  end(error: unknown): void {
    try {
      this.#record(error);
    } catch {
      // A faulty SDK must not change the outcome of a payment call.
    }
  }

  #record(error: unknown): void {
    const status = this.#status;
    const type = error === null ? undefined : errorType(error);
    const span = this.#span;
    if (span?.isRecording()) {
      if (status !== undefined) span.setAttribute(ATTR.statusCode, status);
      span.setAttribute(ATTR.outcome, attemptOutcome(error));
      if (type !== undefined) {
        span.setAttribute(ATTR.errorType, type);
        // The code only: a message could quote what the gateway said, and telemetry leaves the process.
        span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: type });
      }
    }
    span?.end();
    if (this.#histogram) {
      const attributes: Otel.Attributes = { ...this.#metricAttributes };
      if (status !== undefined) attributes[ATTR.statusCode] = status;
      if (type !== undefined) attributes[ATTR.errorType] = type;
      this.#histogram.record((performance.now() - this.#started) / 1000, attributes);
    }
  }
}
