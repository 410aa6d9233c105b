// A small OTLP/HTTP receiver on 127.0.0.1 for tests: accepts POST /v1/traces, /v1/metrics and /v1/logs with JSON
// bodies (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), keeps every body's text and decodes the spans and metric points.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP attribute value as JSON carries it. */
interface AnyValue {
  readonly stringValue?: string;
  readonly intValue?: string | number;
  readonly doubleValue?: number;
  readonly boolValue?: boolean;
}
interface KeyValue {
  readonly key: string;
  readonly value: AnyValue;
}

/** A span as it arrived, its attributes made plain. */
export interface ReceivedSpan {
  readonly name: string;
  /** OTLP's SpanKind: 3 is CLIENT. */
  readonly kind: number;
  readonly scope: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, unknown>;
  readonly status: { readonly code?: number; readonly message?: string };
  readonly resource: Record<string, unknown>;
}

/** A histogram data point as it arrived. */
export interface ReceivedHistogramPoint {
  readonly metric: string;
  readonly unit: string;
  readonly scope: string;
  readonly count: number;
  readonly explicitBounds: readonly number[];
  readonly attributes: Record<string, unknown>;
  readonly resource: Record<string, unknown>;
}

function plain(attributes: readonly KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    out[key] = value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue;
  }
  return out;
}

/** Starts the receiver; `bodies` holds every request's text by path. */
export async function startOtlpReceiver() {
  const bodies: { path: string; text: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const known = request.method === 'POST' && ['/v1/traces', '/v1/metrics', '/v1/logs'].includes(request.url ?? '');
      if (known) bodies.push({ path: request.url!, text });
      response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const decoded = (path: string) => bodies.filter((b) => b.path === path).map((b) => JSON.parse(b.text));
  return {
    url,
    bodies,
    /** The OTEL_* environment that points an SDK at this receiver, in OTLP/HTTP JSON. */
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_LOGS_EXPORTER: 'none',
    },
    /** Every body received, as one text: to search for what must never leave. */
    everything: () => bodies.map((b) => b.text).join('\n'),
    spans(): ReceivedSpan[] {
      return decoded('/v1/traces').flatMap((body) =>
        body.resourceSpans.flatMap((rs: any) =>
          rs.scopeSpans.flatMap((ss: any) =>
            ss.spans.map((s: any) => ({
              name: s.name,
              kind: s.kind,
              scope: ss.scope?.name,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              attributes: plain(s.attributes),
              status: s.status ?? {},
              resource: plain(rs.resource?.attributes),
            })),
          ),
        ),
      );
    },
    histogramPoints(): ReceivedHistogramPoint[] {
      return decoded('/v1/metrics').flatMap((body) =>
        body.resourceMetrics.flatMap((rm: any) =>
          rm.scopeMetrics.flatMap((sm: any) =>
            sm.metrics
              .filter((m: any) => m.histogram)
              .flatMap((m: any) =>
                m.histogram.dataPoints.map((p: any) => ({
                  metric: m.name,
                  unit: m.unit,
                  scope: sm.scope?.name,
                  count: Number(p.count),
                  explicitBounds: p.explicitBounds ?? [],
                  attributes: plain(p.attributes),
                  resource: plain(rm.resource?.attributes),
                })),
              ),
          ),
        ),
      );
    },
    /** The counters' points of the last metrics export (cumulative: each counter's total at the end), their values made plain. */
    lastSumPoints(): { metric: string; scope: string; value: number; attributes: Record<string, unknown> }[] {
      const last = decoded('/v1/metrics').at(-1);
      if (!last) return [];
      return last.resourceMetrics.flatMap((rm: any) =>
        rm.scopeMetrics.flatMap((sm: any) =>
          sm.metrics
            .filter((m: any) => m.sum)
            .flatMap((m: any) =>
              m.sum.dataPoints.map((p: any) => ({
                metric: m.name,
                scope: sm.scope?.name,
                value: Number(p.asInt ?? p.asDouble ?? 0),
                attributes: plain(p.attributes),
              })),
            ),
        ),
      );
    },
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
