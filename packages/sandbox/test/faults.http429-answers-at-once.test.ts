import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { authorisedOrder } from './harness.ts';
import { fire, ready } from './throttle-harness.ts';

describe('faults: http429, a gateway that throttles', () => {
  it("answers 429 with the rule's Retry-After at once, before the latency, and applies nothing", async () => {
    await using sandbox = await startSandbox({ faults: { '/v1/capture': { http429: 1, retryAfterSeconds: 3, latencyMs: 600 } } });
    const order = await authorisedOrder(sandbox);
    const started = performance.now();
    const reply = await fire(sandbox, await ready('capture', { capture_orders: [order] }));
    expect(performance.now() - started).toBeLessThan(400);
    expect([reply.status, reply.retryAfter]).toEqual([429, '3']);
    expect(reply.json).toMatchObject({ return_status: '0', errors: [{ path: 'faults.http429' }] });
    expect(sandbox.state.orders.get(order.transaction_id)!.state).toBe('authorised');
    expect(sandbox.state.requests.at(-1)).toMatchObject({ path: '/v1/capture', processed: false, outcome: 'refused', throttled: true });
  });

  it("is injected one-shot (Retry-After 1 unless the path's rule says), and counted as a fault while the throttle counts", async () => {
    await using sandbox = await startSandbox({ throttle: {} });
    const query = await ready('query', { order_no: 'X' });
    const injected = await api(sandbox, 'POST', 'faults/inject', { path: '/v1/retrievalTrans', kind: 'http-429', times: 2 });
    expect(injected.json.queued).toEqual({ '/v1/retrievalTrans': ['http-429', 'http-429'] });
    expect([(await fire(sandbox, query)).retryAfter, (await fire(sandbox, query)).status, (await fire(sandbox, query)).status]).toEqual(['1', 429, 200]);
    expect(sandbox.throttle.stats().accounts[0]).toMatchObject({ accepted: 1, throttled: 2, throttledBy: { rate: 0, inFlight: 0, fault: 2 } });
    sandbox.faults.inject('/v1/retrievalTrans', 'http-429');
    expect((await fire(sandbox, query)).status).toBe(429);
    expect(sandbox.state.requests.map((r) => r.throttled)).toEqual([true, true, false, true]);
  });

  it('refuses bad http429 rules with the other problems', async () => {
    await using sandbox = await startSandbox();
    const bad = await api(sandbox, 'PUT', 'faults', { '/v1/capture': { http429: 2, retryAfterSeconds: -1 }, '*': { http5xx: 0.6, http429: 0.6 } });
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['"/v1/capture".http429', '"/v1/capture".retryAfterSeconds', '"*"']);
    expect((await api(sandbox, 'PUT', 'faults', { '*': { http429: 0.1, retryAfterSeconds: 2 } })).json.rules).toEqual({
      '*': { http429: 0.1, retryAfterSeconds: 2 },
    });
  });
});
