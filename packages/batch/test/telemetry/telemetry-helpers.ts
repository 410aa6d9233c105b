// Reading what captureTelemetry captured of a batch: spans by name and parent, metric points by name; and the client
// with a stand-in CLIENT span per call (the client's own spans are @gw/client's work), to show where its spans land.
import { SpanKind, trace } from '@opentelemetry/api';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { BatchClient } from '../../src/index.ts';

/** The attribute that marks a stand-in client span. */
export const STAND_IN = 'gw.test.stand_in';

/** The client with each capture and query made inside a stand-in CLIENT span started in the active context. */
export function clientWithStandInSpans(real: BatchClient): BatchClient {
  const tracer = trace.getTracer('gw-test-stand-in');
  const spanned =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes: { [STAND_IN]: true } }, async (span) => {
        try {
          return await call(...args);
        } finally {
          span.end();
        }
      });
  return {
    ...real,
    capture: spanned('POST /v1/capture', real.capture.bind(real)),
    query: spanned('POST /v1/retrievalTrans', real.query.bind(real)),
  } as BatchClient;
}

/** The spans named `name`. */
export function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}

/** The spans whose parent is `parent`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  const id = parent.spanContext().spanId;
  return spans.filter((s) => s.parentSpanContext?.spanId === id);
}

/** The span's parent among `spans`, or undefined. */
export function parentOf(spans: readonly ReadableSpan[], span: ReadableSpan): ReadableSpan | undefined {
  const id = span.parentSpanContext?.spanId;
  return id === undefined ? undefined : spans.find((s) => s.spanContext().spanId === id);
}

/** A metric's points: each one's attributes and value (a number, or a histogram's count and sum). */
export function points(resource: ResourceMetrics, name: string): { attributes: Record<string, unknown>; value: unknown }[] {
  return resource.scopeMetrics.flatMap((scope) =>
    scope.metrics
      .filter((m) => m.descriptor.name === name)
      .flatMap((m) => m.dataPoints.map((p) => ({ attributes: p.attributes as Record<string, unknown>, value: p.value }))),
  );
}

/** The value of a counter's point with exactly `attributes` (0 when there is none). */
export function counted(resource: ResourceMetrics, name: string, attributes: Record<string, unknown>): number {
  const point = points(resource, name).find((p) => JSON.stringify(Object.entries(p.attributes).sort()) === JSON.stringify(Object.entries(attributes).sort()));
  return (point?.value as number | undefined) ?? 0;
}
