import { describe, expect, it } from 'vitest';
import { SandboxThrottleError, startSandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { fireAll, ready } from './throttle-harness.ts';

describe('control API: throttle', () => {
  it('sets the quota, reads it back, reports and resets what it counted, and switches it off', async () => {
    await using sandbox = await startSandbox();
    const query = await ready('query', { order_no: 'X' });
    expect((await api(sandbox, 'GET', 'throttle')).json).toEqual({ throttle: null });
    const set = await api(sandbox, 'PUT', 'throttle', { ratePerSecond: 2, maxInFlight: 5 });
    expect([set.status, set.json]).toEqual([200, { throttle: { ratePerSecond: 2, maxInFlight: 5 } }]);
    expect((await api(sandbox, 'GET', 'throttle')).json).toEqual({ throttle: { ratePerSecond: 2, maxInFlight: 5 } });
    expect(sandbox.throttle.get()).toEqual({ ratePerSecond: 2, maxInFlight: 5 });

    expect((await fireAll(sandbox, [query, query, query])).map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const { stats } = (await api(sandbox, 'GET', 'throttle/stats')).json;
    expect(stats).toMatchObject({
      accepted: 2,
      throttled: 1,
      accounts: [{ merchantId: 'M100200', accountId: 'A300400', accepted: 2, throttled: 1, throttledBy: { rate: 1, inFlight: 0, fault: 0 }, inFlight: 0 }],
    });
    expect(stats.accounts[0].maxInFlight).toBeGreaterThanOrEqual(1);
    expect(Date.parse(stats.accounts[0].firstAcceptedAt)).toBeLessThanOrEqual(Date.parse(stats.accounts[0].lastAnsweredAt));
    expect(stats.perSecond.reduce((n: number, s: { accepted: number; throttled: number }) => n + s.accepted + s.throttled, 0)).toBe(3);
    expect(stats.perSecond[0].at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(stats).toEqual(JSON.parse(JSON.stringify(sandbox.throttle.stats())));

    const reset = await api(sandbox, 'POST', 'throttle/stats/reset');
    expect(reset.json.stats).toMatchObject({
      accepted: 0,
      throttled: 0,
      perSecond: [],
      accounts: [{ accepted: 0, throttled: 0, maxInFlight: 0, firstAcceptedAt: null }],
    });
    expect((await api(sandbox, 'PUT', 'throttle', { throttle: null })).json).toEqual({ throttle: null });
    expect((await fireAll(sandbox, [query, query, query])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(sandbox.throttle.stats().accepted).toBe(0);

    // {} counts without limiting: how a test measures a client's own pace at the gateway.
    expect((await api(sandbox, 'PUT', 'throttle', {})).json).toEqual({ throttle: { ratePerSecond: null, maxInFlight: null } });
    expect((await fireAll(sandbox, [query, query, query])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(sandbox.throttle.stats()).toMatchObject({ accepted: 3, throttled: 0 });
    await api(sandbox, 'POST', 'reset');
    expect(sandbox.throttle.stats()).toMatchObject({ accepted: 0, throttled: 0, perSecond: [] });
    expect(sandbox.throttle.get()).toEqual({ ratePerSecond: null, maxInFlight: null });
  });

  it('refuses a bad setting with every problem at once, changing nothing; so do the option and the handle', async () => {
    await using sandbox = await startSandbox({ throttle: { ratePerSecond: 40 } });
    const bad = await api(sandbox, 'PUT', 'throttle', { ratePerSecond: 0, maxInFlight: 1.5, burst: 3 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['ratePerSecond', 'maxInFlight', 'burst']);
    expect((await api(sandbox, 'PUT', 'throttle', { throttle: [] })).status).toBe(400);
    expect((await api(sandbox, 'GET', 'throttle')).json).toEqual({ throttle: { ratePerSecond: 40, maxInFlight: null } });
    expect(() => sandbox.throttle.set({ maxInFlight: -1 })).toThrow(SandboxThrottleError);

    const refused = await startSandbox({ throttle: { ratePerSecond: 2_000_000, maxInFlight: 0 } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxThrottleError);
    expect(refused).toMatchObject({ code: 'GW_CONFIG', details: { problems: [{ path: 'ratePerSecond' }, { path: 'maxInFlight' }] } });
  });
});
