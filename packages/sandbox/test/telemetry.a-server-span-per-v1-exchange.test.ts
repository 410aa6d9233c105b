import { propagation, ROOT_CONTEXT, SpanKind, trace, type Context, type TextMapPropagator } from '@opentelemetry/api';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment } from './harness.ts';
import { ready, type ReadyRequest } from './throttle-harness.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
let capture: TelemetryCapture;
let sandbox: Sandbox;

beforeAll(async () => {
  capture = captureTelemetry();
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
  await capture.stop();
});
beforeEach(() => capture.reset());

/** POSTs a ready request with extra headers; its status, or null when the connection was reset. */
async function fire(request: ReadyRequest, headers: Record<string, string> = {}): Promise<number | null> {
  try {
    const response = await fetch(`${sandbox.url}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': request.contentType, ...headers },
      body: request.body,
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** The one span the sandbox ended since the last reset (waiting for the connection's close). */
async function exchangeSpan() {
  for (let i = 0; i < 100 && capture.spans().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  const spans = capture.spans().filter((s) => s.instrumentationScope.name === '@gw/sandbox');
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

describe('a /v1 exchange is a SERVER span', () => {
  it('a card payment without traceparent: a root span POST /v1/authorise with the HTTP server attributes, no card data', async () => {
    const payment = cardPayment();
    expect(await fire(await ready('authoriseCard', payment))).toBe(200);
    const span = await exchangeSpan();
    expect(span.name).toBe('POST /v1/authorise');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/v1/authorise',
      'url.path': '/v1/authorise',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': sandbox.port,
      'http.response.status_code': 200,
      'gw.operation': 'authoriseCard',
      'gw.sandbox.throttled': false,
    });
    const everything = await capture.everything();
    for (const secret of [String(payment.card), '"123"', '2030']) expect(everything).not.toContain(secret);
  });

  it("with a traceparent: the span continues the caller's trace under its span", async () => {
    expect(await fire(await ready('query', { order_no: 'X' }), { traceparent: `00-${TRACE_ID}-${PARENT_SPAN}-01` })).toBe(200);
    const span = await exchangeSpan();
    expect(span.name).toBe('POST /v1/retrievalTrans');
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_SPAN, isRemote: true });
    expect(span.attributes['gw.operation']).toBe('query');
  });

  it('with a propagator registered by the application: the parent is what the propagator reads', async () => {
    // A propagator of another header than traceparent: only a span read through it can have this parent.
    const custom: TextMapPropagator = {
      inject: () => {},
      extract: (context: Context, carrier: unknown) => {
        const id = (carrier as Record<string, string | undefined>)['x-test-trace'];
        return id ? trace.setSpanContext(context, { traceId: id, spanId: PARENT_SPAN, traceFlags: 1, isRemote: true }) : context;
      },
      fields: () => ['x-test-trace'],
    };
    propagation.setGlobalPropagator(custom);
    try {
      const other = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
      await fire(await ready('query', { order_no: 'X' }), { 'x-test-trace': other, traceparent: `00-${TRACE_ID}-${PARENT_SPAN}-01` });
      expect((await exchangeSpan()).spanContext().traceId).toBe(other);
    } finally {
      propagation.disable();
    }
    expect(propagation.extract(ROOT_CONTEXT, {})).toBe(ROOT_CONTEXT);
  });

  it('a throttled exchange (the http-429 fault): status 429, throttled, the fault named', async () => {
    sandbox.faults.inject('/v1/retrievalTrans', 'http-429');
    expect(await fire(await ready('query', { order_no: 'X' }))).toBe(429);
    expect((await exchangeSpan()).attributes).toMatchObject({ 'http.response.status_code': 429, 'gw.sandbox.throttled': true, 'gw.sandbox.fault': 'http-429' });
  });

  it('a connection reset before processing: no status, error.type connection-reset, the fault named', async () => {
    sandbox.faults.inject('/v1/retrievalTrans', 'reset-before');
    expect(await fire(await ready('query', { order_no: 'X' }))).toBeNull();
    const span = await exchangeSpan();
    expect(span.attributes).toMatchObject({ 'error.type': 'connection-reset', 'gw.sandbox.fault': 'reset-before' });
    expect(span.attributes['http.response.status_code']).toBeUndefined();
    expect(span.status.code).toBe(2);
  });

  it('a 5xx fault: error.type is the status', async () => {
    sandbox.faults.inject('/v1/retrievalTrans', 'http-5xx');
    expect(await fire(await ready('query', { order_no: 'X' }))).toBe(503);
    expect((await exchangeSpan()).attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503', 'gw.sandbox.fault': 'http-5xx' });
  });
});
