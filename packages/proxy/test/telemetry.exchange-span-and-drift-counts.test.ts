import { setTimeout as sleep } from 'node:timers/promises';
import { SpanKind } from '@opentelemetry/api';
import type { Verifier } from '@gw/signer-interface';
import { startSandbox } from '@gw/sandbox';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { until } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../src/index.ts';
import { CARD, clientAt, CVV, signer } from './support.ts';

let capture: TelemetryCapture;
beforeAll(() => {
  capture = captureTelemetry();
});
afterAll(() => capture.stop());

/** The proxy's spans ended so far, waiting until there are `count`. */
async function proxySpans(count: number) {
  const mine = () => capture.spans().filter((s) => s.instrumentationScope.name === '@gw/proxy');
  await until(() => mine().length >= count, 2_000);
  return mine();
}

/** A counter's points as `attribute values joined by space` → value. */
async function points(name: string, keys: readonly string[]): Promise<Record<string, number>> {
  const scope = (await capture.metrics()).scopeMetrics.find((s) => s.scope.name === '@gw/proxy');
  const metric = scope?.metrics.find((m) => m.descriptor.name === name);
  return Object.fromEntries((metric?.dataPoints ?? []).map((p) => [keys.map((k) => p.attributes[k]).join(' '), p.value as number]));
}

/** A card payment of 40.00 USD with the test card: card data the telemetry must never hold. */
const cardPayment = (orderNo: string) => ({
  order_no: orderNo,
  currency: 'USD',
  amount: '40.00',
  card: CARD,
  expiration_month: '12',
  expiration_year: '2031',
  security_code: CVV,
});

describe('a proxied exchange is a SERVER span; drift and exchanges are counted', () => {
  it('a capture the sandbox answers with drift: the span names the drift found, the counter counts it by operation and kind', async () => {
    await using sandbox = await startSandbox();
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: signer });
    const client = clientAt(proxy.url, { verifyResponses: false });
    const paid = await client.authoriseCard(cardPayment('OTEL-1'));
    sandbox.answerDrift.set({ capture: { add: { settlement_window: 'T+1' }, drop: ['capture_orders[].amount'], wrongSignature: true } });
    await client.capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'OTEL-1', currency: 'USD', amount: '40.00' }] });
    await proxy.settled();

    const [payment, capture_] = await proxySpans(2);
    expect(payment!.name).toBe('POST /v1/authorise');
    expect(payment!.attributes).toMatchObject({ 'gw.operation': 'authoriseCard', 'gw.proxy.drift.count': 0, 'http.response.status_code': 200 });
    expect(capture_!.name).toBe('POST /v1/capture');
    expect(capture_!.kind).toBe(SpanKind.SERVER);
    expect(capture_!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/capture',
      'url.path': '/v1/capture',
      'server.address': '127.0.0.1',
      'server.port': proxy.port,
      'http.response.status_code': 200,
      'gw.operation': 'capture',
      'gw.proxy.drift.count': 3,
      'gw.proxy.drift.kinds': ['missing-field', 'signature', 'unknown-field'],
    });
    const upstream = capture_!.attributes['gw.proxy.upstream.duration'] as number;
    expect(upstream).toBeGreaterThan(0);
    expect(upstream).toBeLessThan(5);
    expect(capture_!.events.map((e) => [e.attributes?.['gw.drift.kind'], e.attributes?.['gw.drift.path']]).sort()).toEqual([
      ['missing-field', 'capture_orders[].amount'],
      ['signature', 'encryption_data'],
      ['unknown-field', 'settlement_window'],
    ]);

    const drift = await points('gw.proxy.drift', ['gw.operation', 'gw.drift.kind']);
    expect(drift).toEqual({ 'capture unknown-field': 1, 'capture missing-field': 1, 'capture signature': 1 });
    const exchanges = await points('gw.proxy.exchanges', ['gw.operation', 'http.response.status_code']);
    expect(exchanges).toMatchObject({ 'authoriseCard 200': 1, 'capture 200': 1 });

    const everything = await capture.everything();
    for (const secret of [CARD, `"${CVV}"`, '2031', paid.encryption_data!.slice(0, 16)]) expect(everything, secret).not.toContain(secret);
  });

  it('with an asynchronous verifier, answers checked out of order: each finding goes to its own exchange', async () => {
    const slowVerifier: Verifier = {
      verify: async (message, signature) => {
        await sleep(1 + Math.floor(Math.random() * 15));
        return signer.verify(message, signature);
      },
    };
    await using sandbox = await startSandbox();
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: slowVerifier });
    const client = clientAt(proxy.url, { verifyResponses: false });
    const pay = (n: number) => client.authoriseCard(cardPayment(`OTEL-ASYNC-${n}`));
    capture.reset();
    await Promise.all([0, 1, 2, 3, 4].map(pay));
    sandbox.answerDrift.set({ authoriseCard: { wrongSignature: true } });
    const driftFrom = performance.timeOrigin + performance.now();
    await Promise.all([10, 11, 12].map(pay));
    const driftTo = performance.timeOrigin + performance.now();
    sandbox.answerDrift.set({});
    await Promise.all([20, 21, 22, 23].map(pay));
    await proxy.settled();
    const spans = await proxySpans(12);
    const startMs = (span: (typeof spans)[number]) => span.startTime[0] * 1000 + span.startTime[1] / 1e6;
    const drifted = spans.filter((s) => s.attributes['gw.proxy.drift.count'] === 1);
    expect(drifted).toHaveLength(3);
    for (const span of drifted) {
      expect(span.attributes['gw.proxy.drift.kinds']).toEqual(['signature']);
      expect(startMs(span)).toBeGreaterThanOrEqual(driftFrom - 1);
      expect(startMs(span)).toBeLessThanOrEqual(driftTo);
    }
    expect(spans.filter((s) => s.attributes['gw.proxy.drift.count'] === 0)).toHaveLength(9);
  });

  it('a path the spec does not know, carrying a card number: named by the method, its path by shape, counted as unknown-path', async () => {
    await using sandbox = await startSandbox();
    await using proxy = await startProxy({ upstream: sandbox.url });
    capture.reset();
    await (await fetch(`${proxy.url}/v1/cards/${CARD}?cvv=${CVV}`, { method: 'POST', body: '{}' })).arrayBuffer();
    await proxy.settled();
    const [span] = await proxySpans(1);
    expect(span!.name).toBe('POST');
    expect(span!.attributes).toMatchObject({
      'url.path': '/v1/cards/{digits}',
      'gw.operation': '/v1/cards/{digits}',
      'http.response.status_code': 404,
      'gw.proxy.drift.kinds': ['unknown-path'],
    });
    expect(span!.attributes['http.route']).toBeUndefined();
    expect(await points('gw.proxy.drift', ['gw.operation', 'gw.drift.kind'])).toMatchObject({ '/v1/cards/{digits} unknown-path': 1 });
    expect(await capture.everything()).not.toContain(CARD);
  });

  it("an upstream that cannot be reached: the proxy's own 502, error.type, no check", async () => {
    await using proxy = await startProxy({ upstream: 'http://127.0.0.1:1' });
    capture.reset();
    expect((await fetch(`${proxy.url}/v1/capture`, { method: 'POST', body: '{}' })).status).toBe(502);
    const [span] = await proxySpans(1);
    expect(span!.attributes).toMatchObject({ 'http.response.status_code': 502, 'error.type': '502', 'gw.proxy.drift.count': 0 });
    expect(span!.attributes['gw.proxy.upstream.duration']).toBeUndefined();
  });
});
