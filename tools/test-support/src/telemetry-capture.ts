// OpenTelemetry for a test: the SDK registered globally with in-memory exporters, so a test runs gw's code as a user
// with an SDK would and reads back every span and metric point it produced. A subpath of its own
// (`@gw/test-support/telemetry`): a test that checks no telemetry loads no SDK.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';

/** A metric reader the test collects from when it wants (no interval). */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** What the registered SDK captured. */
export interface TelemetryCapture {
  /** Every span ended since the start (or the last `reset`), in the order they ended. */
  spans(): ReadableSpan[];
  /** The metric points as they stand now (cumulative since the start). */
  metrics(): Promise<ResourceMetrics>;
  /** Every span and metric point as one JSON text: to search for what must never be in telemetry. */
  everything(): Promise<string>;
  /** Forgets the spans ended so far (metrics are cumulative and stay). */
  reset(): void;
  /** Unregisters the SDK (the API is a no-op again). */
  stop(): Promise<void>;
}

/** Registers a tracer provider, a meter provider and an async-hooks context manager globally, capturing in memory. */
export function captureTelemetry(): TelemetryCapture {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const collect = async () => (await reader.collect()).resourceMetrics;
  return {
    spans: () => exporter.getFinishedSpans().slice(),
    metrics: collect,
    async everything() {
      const spans = exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links }));
      return JSON.stringify({ spans, metrics: (await collect()).scopeMetrics });
    },
    reset: () => exporter.reset(),
    async stop() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}
