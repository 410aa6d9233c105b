import type * as Otel from '@opentelemetry/api';
import { lazyTelemetryGate, type OperationSpec, type TelemetryGate } from '@gw/types';
import { AttemptTelemetry } from './attempt-telemetry.ts';
import { DURATION_BUCKETS, DURATION_METRIC, INSTRUMENTATION_NAME } from './conventions.ts';
import type { ResolvedTelemetry } from './telemetry-options.ts';

type Gate = TelemetryGate<typeof Otel, Otel.Tracer, Otel.Histogram, Otel.Context>;

/**
 * The API as this package resolves it (an optional peer), and the tracer and duration histogram of whatever SDK is
 * registered now: one check per try, nothing allocated while none is. Made at the first client, so that a program that
 * makes none (`gw batch --help`) loads no API.
 */
const clientGate = lazyTelemetryGate<typeof Otel, Otel.Tracer, Otel.Meter, Otel.Histogram, Otel.Context>({
  fromUrl: import.meta.url,
  name: INSTRUMENTATION_NAME,
  instruments: (meter) =>
    meter.createHistogram(DURATION_METRIC, {
      unit: 's',
      description: 'Duration of HTTP client requests.',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    }),
});

/** Where the client sends: the parts of its base URL the spans and metric points name. */
export interface TelemetryTarget {
  /** The base URL's origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
}

/** The client's spans and duration histogram, through `@opentelemetry/api` when the application installed it. */
export class ClientTelemetry {
  readonly #gate: Gate;
  readonly #api: typeof Otel;
  readonly #options: ResolvedTelemetry;
  readonly #origin: string;
  readonly #serverAddress: string;
  readonly #serverPort: number;

  private constructor(gate: Gate, options: ResolvedTelemetry, target: TelemetryTarget) {
    this.#gate = gate;
    this.#api = gate.api;
    this.#options = options;
    const url = new URL(target.origin);
    this.#origin = url.origin;
    this.#serverAddress = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.#serverPort = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  }

  /** The client's telemetry, or null when it is turned off or `@opentelemetry/api` is not installed. */
  static create(options: ResolvedTelemetry | null, target: TelemetryTarget): ClientTelemetry | null {
    const gate = options === null ? null : clientGate();
    return gate === null || options === null ? null : new ClientTelemetry(gate, options, target);
  }

  /**
   * Starts one try's span (a child of the active context) and its duration point; null, having allocated nothing,
   * while no SDK is registered (and then no `traceparent` either: there is no span to name).
   */
  startAttempt(op: OperationSpec, attempt: number, path: string, record: Readonly<Record<string, unknown>>): AttemptTelemetry | null {
    try {
      const now = this.#gate.now();
      if (!now) return null;
      const span = now.tracer?.startSpan(`${op.method} ${op.path}`, { kind: this.#api.SpanKind.CLIENT }) ?? null;
      return new AttemptTelemetry(this.#api, span, now.instruments, this.#options.propagate, {
        operation: op.name,
        template: op.path,
        urlFull: `${this.#origin}${path}`,
        serverAddress: this.#serverAddress,
        serverPort: this.#serverPort,
        attempt,
        orders: batchOrders(op, record),
      });
    } catch {
      return null; // a faulty SDK must not stop a payment call
    }
  }
}

/** The number of orders a batch request carries (capture, refund, cancel, review), or null for other operations. */
function batchOrders(op: OperationSpec, record: Readonly<Record<string, unknown>>): number | null {
  if (!op.batch || op.batch.separator) return null;
  const orders = record[op.batch.array];
  return Array.isArray(orders) ? orders.length : null;
}
