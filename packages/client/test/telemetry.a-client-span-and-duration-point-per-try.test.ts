// With an OpenTelemetry SDK registered, every try of a call is one CLIENT span named after the operation's path
// template, a child of the caller's span, and one point of the http.client.request.duration histogram.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { startSandbox } from '@gw/sandbox';
import { operations } from '@gw/types';
import { captureTelemetry } from '@gw/test-support/telemetry';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../src/index.ts';
import { authorisedOrder, cardPayment, clientSpans, reply, sandboxClient, startForwardingServer } from './support.ts';

const telemetry = captureTelemetry();
afterAll(() => telemetry.stop());
beforeEach(() => telemetry.reset());

const PAYMENT = operations.authoriseCard.path;
const CAPTURE = operations.capture.path;
const QUERY = operations.query.path;
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** The duration histogram's data points. */
async function durationPoints() {
  const scopes = (await telemetry.metrics()).scopeMetrics.filter((s) => s.scope.name === '@gw/client');
  const metric = scopes.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.client.request.duration');
  return {
    metric,
    points: (metric?.dataPoints ?? []) as { attributes: Record<string, unknown>; value: { count: number; buckets: { boundaries: number[] } } }[],
  };
}

describe("a client span per try, under the caller's span", () => {
  it('a card payment: one CLIENT span POST <its path> with the HTTP and gw attributes, and a duration point', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    const port = Number(new URL(sandbox.url).port);
    const tracer = trace.getTracer('test');
    const parent = await tracer.startActiveSpan('checkout', async (span) => {
      await client.authoriseCard(cardPayment());
      span.end();
      return span;
    });
    const spans = clientSpans(telemetry);
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.name).toBe(`POST ${PAYMENT}`);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${sandbox.url}${PAYMENT}`,
      'url.template': PAYMENT,
      'http.response.status_code': 200,
      'gw.operation': 'authoriseCard',
      'gw.outcome': 'applied',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);

    const { metric, points } = await durationPoints();
    expect(metric?.descriptor.unit).toBe('s');
    const point = points.find((p) => p.attributes['gw.operation'] === 'authoriseCard')!;
    expect(point.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.template': PAYMENT,
      'http.response.status_code': 200,
      'gw.operation': 'authoriseCard',
    });
    expect(point.value.count).toBe(1);
    expect(point.value.buckets.boundaries).toEqual(BUCKETS);
  });

  it('a capture carries gw.orders, the number of orders in the request', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    const orders = [await authorisedOrder(client), await authorisedOrder(client)];
    telemetry.reset();
    await client.capture({ capture_orders: orders });
    const [span] = clientSpans(telemetry, CAPTURE);
    expect(span?.attributes['gw.orders']).toBe(2);
    expect(span?.attributes['gw.outcome']).toBe('applied');
  });

  it('a query reset before processing: two spans, the retry with http.request.resend_count 1', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    sandbox.faults.inject(QUERY, 'reset-before');
    await client.query({ order_no: ['X'] });
    const spans = clientSpans(telemetry, QUERY);
    expect(spans).toHaveLength(2);
    const [first, second] = spans;
    expect(first!.attributes['http.request.resend_count']).toBeUndefined();
    expect(first!.attributes['error.type']).toBe('GW_HTTP');
    expect(first!.attributes['gw.outcome']).toBe('unknown'); // a query sent whose connection dropped
    expect(first!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'GW_HTTP' });
    expect(second!.attributes['http.request.resend_count']).toBe(1);
    expect(second!.attributes['gw.outcome']).toBe('applied');
    expect(second!.attributes['http.response.status_code']).toBe(200);
  });

  it('a capture whose connection is lost after sending: error.type GW_OUTCOME_UNKNOWN, gw.outcome unknown, status ERROR', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    const order = await authorisedOrder(client);
    telemetry.reset();
    sandbox.faults.inject(CAPTURE, 'reset-after');
    await expect(client.capture({ capture_orders: [order] })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const spans = clientSpans(telemetry, CAPTURE);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toMatchObject({ 'error.type': 'GW_OUTCOME_UNKNOWN', 'gw.outcome': 'unknown', 'gw.orders': 1 });
    expect(spans[0]!.attributes['http.response.status_code']).toBeUndefined();
    expect(spans[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'GW_OUTCOME_UNKNOWN' });
    const { points } = await durationPoints();
    expect(points.find((p) => p.attributes['error.type'] === 'GW_OUTCOME_UNKNOWN')?.attributes['gw.operation']).toBe('capture');
  });

  it('a throttled capture: gw.outcome throttled, status code 429, error.type GW_THROTTLED', async () => {
    await using sandbox = await startSandbox();
    await using front = await startForwardingServer(sandbox, (_request, _text, res) => {
      res.setHeader('retry-after', '1');
      reply(res, 429, '');
    });
    await using client = sandboxClient(front);
    await expect(client.capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] })).rejects.toMatchObject({
      code: 'GW_THROTTLED',
    });
    const [span] = clientSpans(telemetry, CAPTURE);
    expect(span?.attributes).toMatchObject({ 'gw.outcome': 'throttled', 'http.response.status_code': 429, 'error.type': 'GW_THROTTLED' });
  });

  it('a whole-request refusal of a batch (return_status 0): gw.outcome refused, error.type GW_GATEWAY', async () => {
    await using sandbox = await startSandbox();
    await using front = await startForwardingServer(sandbox, (_request, text, res) => reply(res, 200, text));
    await using client = sandboxClient(front, { merchantId: 'unknown-merchant' });
    await expect(client.query({ order_no: ['X'] })).rejects.toMatchObject({ code: 'GW_GATEWAY' });
    const [span] = clientSpans(telemetry, QUERY);
    expect(span?.attributes['gw.outcome']).toBe('refused');
    expect(span?.attributes['error.type']).toBe('GW_GATEWAY');
    expect(span?.attributes['http.response.status_code']).toBe(200);
  });

  it('telemetry: false records nothing, with an SDK registered', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox, { telemetry: false });
    const queries = async () =>
      (await durationPoints()).points.filter((p) => p.attributes['gw.operation'] === 'query').reduce((sum, p) => sum + p.value.count, 0);
    const before = await queries();
    await client.query({ order_no: ['X'] });
    expect(clientSpans(telemetry)).toEqual([]);
    expect(await queries()).toBe(before);
  });
});
