import type { Histogram, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api';
import type { OperationSpec } from '@gw/types';
import { AttemptTelemetry } from './attempt-telemetry.ts';
import { DURATION_BUCKETS, DURATION_METRIC, INSTRUMENTATION_NAME } from './conventions.ts';
import { otelApi, type OtelApi } from './otel-api.ts';
import type { ResolvedTelemetry } from './telemetry-options.ts';

/** Where the client sends: the parts of its base URL the spans and metric points name. */
export interface TelemetryTarget {
  /** The base URL's origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
}

/**
 * The client's spans and duration histogram, through `@opentelemetry/api` when the application installed it. The
 * tracer and histogram are fetched again only when the global provider changes (an SDK registered after the client).
 */
export class ClientTelemetry {
  readonly #api: OtelApi;
  readonly #options: ResolvedTelemetry;
  readonly #serverAddress: string;
  readonly #serverPort: number;
  readonly #origin: string;
  #tracerProvider: TracerProvider | undefined;
  #tracer: Tracer | undefined;
  #meterProvider: MeterProvider | undefined;
  #histogram: Histogram | null = null;
  /** The API's no-op tracer provider: the global proxy's delegate while no SDK is registered. */
  readonly #noopTracerProvider: TracerProvider | undefined;

  private constructor(api: OtelApi, options: ResolvedTelemetry, target: TelemetryTarget) {
    this.#api = api;
    this.#options = options;
    const url = new URL(target.origin);
    this.#origin = url.origin;
    this.#serverAddress = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.#serverPort = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    this.#noopTracerProvider = typeof api.ProxyTracerProvider === 'function' ? new api.ProxyTracerProvider().getDelegate() : undefined;
  }

  /** The client's telemetry, or null when it is turned off or `@opentelemetry/api` is not installed. */
  static create(options: ResolvedTelemetry | null, target: TelemetryTarget): ClientTelemetry | null {
    if (options === null) return null;
    const api = otelApi();
    return api ? new ClientTelemetry(api, options, target) : null;
  }

  /**
   * Starts one try's span (a child of the active context) and its duration point; null, having done next to nothing,
   * when no SDK records either and nothing is propagated.
   */
  startAttempt(op: OperationSpec, attempt: number, path: string, record: Readonly<Record<string, unknown>>): AttemptTelemetry | null {
    try {
      return this.#start(op, attempt, path, record);
    } catch {
      return null; // a faulty SDK must not stop a payment call
    }
  }

  #start(op: OperationSpec, attempt: number, path: string, record: Readonly<Record<string, unknown>>): AttemptTelemetry | null {
    const api = this.#api;
    const histogram = this.#currentHistogram();
    const tracerProvider = api.trace.getTracerProvider();
    // No SDK, no metrics, nothing to propagate: not even a no-op span is made.
    if (histogram === null && !this.#options.propagate && this.#noTracing(tracerProvider)) return null;
    const span = this.#currentTracer(tracerProvider).startSpan(`${op.method} ${op.path}`, { kind: api.SpanKind.CLIENT });
    if (!span.isRecording() && histogram === null && !this.#options.propagate) return null;
    return new AttemptTelemetry(api, span, histogram, this.#options.propagate, {
      operation: op.name,
      template: op.path,
      urlFull: `${this.#origin}${path}`,
      serverAddress: this.#serverAddress,
      serverPort: this.#serverPort,
      attempt,
      orders: batchOrders(op, record),
    });
  }

  /** True when `provider` is the API's own proxy with no SDK behind it. */
  #noTracing(provider: TracerProvider): boolean {
    const api = this.#api;
    return this.#noopTracerProvider !== undefined && provider instanceof api.ProxyTracerProvider && provider.getDelegate() === this.#noopTracerProvider;
  }

  #currentTracer(provider: TracerProvider): Tracer {
    if (provider !== this.#tracerProvider || this.#tracer === undefined) {
      this.#tracerProvider = provider;
      this.#tracer = provider.getTracer(INSTRUMENTATION_NAME);
    }
    return this.#tracer;
  }

  /** The duration histogram of the registered meter provider, or null when none is registered. */
  #currentHistogram(): Histogram | null {
    const provider = this.#api.metrics.getMeterProvider();
    if (provider === this.#meterProvider) return this.#histogram;
    this.#meterProvider = provider;
    const meter = provider.getMeter(INSTRUMENTATION_NAME);
    this.#histogram =
      meter === this.#api.createNoopMeter()
        ? null
        : meter.createHistogram(DURATION_METRIC, {
            unit: 's',
            description: 'Duration of HTTP client requests.',
            advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
          });
    return this.#histogram;
  }
}

/** The number of orders a batch request carries (capture, refund, cancel, review), or null for other operations. */
function batchOrders(op: OperationSpec, record: Readonly<Record<string, unknown>>): number | null {
  if (!op.batch || op.batch.separator) return null;
  const orders = record[op.batch.array];
  return Array.isArray(orders) ? orders.length : null;
}
