import type { Server } from 'node:http';
import { trace } from '@opentelemetry/api';
import { SpanKind } from '@opentelemetry/api';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotificationReceiver, type NotificationEvent } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, deliver, listen, SECRET } from './helpers.ts';

const PAN = '4111111111111111';
let capture: TelemetryCapture;
let server: Server;
let url: string;
const handled: NotificationEvent[] = [];
const receiver = createNotificationReceiver({
  verifiers: [createHmacSha256Signer({ secret: SECRET })],
  route: '/notify',
  onEvent: (event) => {
    trace.getTracer('merchant').startSpan('update order').end();
    if ((event.data as { order_no?: string }).order_no === 'FAILS') throw new Error(`handler failed on card ${PAN}`);
    handled.push(event);
  },
});

beforeAll(async () => {
  capture = captureTelemetry();
  ({ url, server } = await listen((req, res) => void receiver.node(req, res)));
});
afterAll(async () => {
  server.close();
  await capture.stop();
});
beforeEach(() => capture.reset());

/** The one delivery span ended since the last reset. */
function deliverySpan() {
  const spans = capture.spans().filter((s) => s.instrumentationScope.name === '@gw/notifications');
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

/** The deliveries counter's points as `result kind error.type` → value. */
async function deliveryCounts(): Promise<Record<string, number>> {
  const scope = (await capture.metrics()).scopeMetrics.find((s) => s.scope.name === '@gw/notifications');
  const metric = scope?.metrics.find((m) => m.descriptor.name === 'gw.notifications.deliveries');
  return Object.fromEntries(
    (metric?.dataPoints ?? []).map((p) => [
      [p.attributes['gw.notification.result'], p.attributes['gw.notification.kind'] ?? '-', p.attributes['error.type'] ?? '-'].join(' '),
      p.value as number,
    ]),
  );
}

describe('a delivery is a SERVER span with its result, and counted by result', () => {
  it('a handled delivery, then the same one again (duplicate): spans with the event identifiers, the handler span inside', async () => {
    const n = await signedNotification({ event: cardEvent({ card: PAN }), secret: SECRET });
    expect((await deliver(url, n.body, n.headers)).status).toBe(200);
    const span = deliverySpan();
    expect(span.name).toBe('POST /notify');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/notify',
      'url.path': '/notify',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
      'gw.notification.result': 'handled',
      'gw.notification.id': n.event.id,
      'gw.notification.kind': 'payment.authorised',
      'gw.operation': 'authoriseCard',
      'gw.order_no': 'A-1',
      'gw.transaction_id': 'T2026112300000001',
    });
    expect(span.attributes['server.port']).toBe(Number(new URL(url).port));
    expect(span.attributes['error.type']).toBeUndefined();
    const inner = capture.spans().find((s) => s.name === 'update order');
    expect(inner?.parentSpanContext?.spanId).toBe(span.spanContext().spanId);

    capture.reset();
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('duplicate');
    expect(deliverySpan().attributes).toMatchObject({
      'gw.notification.result': 'duplicate',
      'gw.notification.id': n.event.id,
      'http.response.status_code': 200,
    });
    expect(capture.spans().some((s) => s.name === 'update order')).toBe(false);
    const counts = await deliveryCounts();
    expect(counts['handled payment.authorised -']).toBe(1);
    expect(counts['duplicate payment.authorised -']).toBe(1);
    expect(await capture.everything()).not.toContain(PAN);
  });

  it('a forged delivery (another secret) is refused: error.type GW_SIGNATURE, the reason, no event identifiers', async () => {
    const forged = await signedNotification({ event: cardEvent(), secret: 'whsec-the-forgers-secret' });
    expect((await deliver(url, forged.body, forged.headers)).status).toBe(400);
    const span = deliverySpan();
    expect(span.attributes).toMatchObject({
      'gw.notification.result': 'refused',
      'error.type': 'GW_SIGNATURE',
      'gw.notification.refusal': 'signature-mismatch',
      'http.response.status_code': 400,
    });
    expect(span.attributes['gw.notification.id']).toBeUndefined();
    expect(span.status).toEqual({ code: 2, message: 'GW_SIGNATURE' });
    expect((await deliveryCounts())['refused - GW_SIGNATURE']).toBe(1);
    const everything = await capture.everything();
    const signature = forged.headers['gw-signature']!.split('v1=')[1]!;
    for (const secret of [signature, 'whsec-the-forgers-secret', SECRET, forged.event.id]) expect(everything).not.toContain(secret);
  });

  it('a delivery that is not a version-1 envelope is refused with GW_DECODE', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect((await deliver(url, n.body.slice(0, 20), n.headers)).status).toBe(400);
    expect(deliverySpan().attributes).toMatchObject({ 'gw.notification.result': 'refused', 'error.type': 'GW_DECODE' });
  });

  it('a handler that throws: handler-failed, HTTP 500, the error class and never its message', async () => {
    const n = await signedNotification({ event: cardEvent({ order_no: 'FAILS' }), secret: SECRET });
    expect((await deliver(url, n.body, n.headers)).status).toBe(500);
    const span = deliverySpan();
    expect(span.attributes).toMatchObject({
      'gw.notification.result': 'handler-failed',
      'error.type': 'Error',
      'gw.notification.id': n.event.id,
      'http.response.status_code': 500,
    });
    expect((await deliveryCounts())['handler-failed payment.authorised Error']).toBe(1);
    expect(await capture.everything()).not.toContain(PAN);
  });

  it("a delivery that came with a traceparent continues the sender's trace (no HTTP instrumentation active)", async () => {
    const n = await signedNotification({ event: cardEvent({ order_no: 'C-3' }), secret: SECRET });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect((await deliver(url, n.body, { ...n.headers, traceparent })).status).toBe(200);
    const span = deliverySpan();
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span.parentSpanContext).toMatchObject({ spanId: '00f067aa0ba902b7', isRemote: true });
  });

  it('fetch(): the same span from a WHATWG Request, its trace context read from its Headers', async () => {
    const n = await signedNotification({ event: cardEvent({ order_no: 'D-4' }), secret: SECRET });
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const response = await receiver.fetch(
      new Request('https://shop.example:8443/notify?x=1', { method: 'POST', headers: { ...n.headers, traceparent }, body: n.body }),
    );
    expect(response.status).toBe(200);
    const span = deliverySpan();
    expect(span.name).toBe('POST /notify');
    expect(span.attributes).toMatchObject({
      'url.path': '/notify',
      'server.address': 'shop.example',
      'server.port': 8443,
      'http.response.status_code': 200,
      'gw.order_no': 'D-4',
    });
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('handle() without HTTP nor route: a SERVER span named notification, without HTTP attributes', async () => {
    const plain = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret: SECRET })], onEvent: () => {} });
    const n = await signedNotification({ event: cardEvent({ order_no: 'B-2' }), secret: SECRET });
    expect((await plain.handle({ body: n.bytes, headers: n.headers })).outcome).toBe('processed');
    const span = deliverySpan();
    expect(span.name).toBe('notification');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes['http.request.method']).toBeUndefined();
    expect(span.attributes).toMatchObject({ 'gw.notification.result': 'handled', 'gw.order_no': 'B-2' });
  });
});
