import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { fire, fireAll, ready } from './throttle-harness.ts';

describe('throttle: requests in flight per merchant account', () => {
  it('at maxInFlight 2 with 400 ms of latency, the 3rd concurrent request gets 429 with Retry-After 1 at once; the stats report 2 at most', async () => {
    await using sandbox = await startSandbox({ throttle: { maxInFlight: 2 }, faults: { '/v1/retrievalTrans': { latencyMs: 400 } } });
    const query = await ready('query', { order_no: 'X' });
    const timed = async () => {
      const started = performance.now();
      const reply = await fire(sandbox, query);
      return { ...reply, ms: performance.now() - started };
    };
    const [first, second] = [timed(), timed()];
    // The third leaves once both others are in flight (their latency has begun).
    await expect.poll(() => sandbox.throttle.stats().accounts[0]!.inFlight, { interval: 5 }).toBe(2);
    const third = await timed();
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(third.ms).toBeLessThan(300);
    expect(third.json).toMatchObject({ return_status: '0', errors: [{ path: 'throttle.maxInFlight' }] });
    expect([(await first).status, (await second).status]).toEqual([200, 200]);

    const stats = sandbox.throttle.stats().accounts[0]!;
    expect(stats).toMatchObject({ accepted: 2, throttled: 1, throttledBy: { rate: 0, inFlight: 1, fault: 0 }, inFlight: 0, maxInFlight: 2 });
    // Their places were given back when they were answered: two more go through together.
    expect((await fireAll(sandbox, [query, query])).map((r) => r.status)).toEqual([200, 200]);
    expect(sandbox.throttle.stats().accounts[0]!.maxInFlight).toBe(2);
  });

  it('a request whose connection a fault resets gives its place back', async () => {
    await using sandbox = await startSandbox({ throttle: { maxInFlight: 1 } });
    const query = await ready('query', { order_no: 'X' });
    sandbox.faults.inject('/v1/retrievalTrans', 'reset-before');
    await expect(fire(sandbox, query)).rejects.toThrow();
    sandbox.faults.inject('/v1/retrievalTrans', 'reset-after');
    await expect(fire(sandbox, query)).rejects.toThrow();
    expect((await fire(sandbox, query)).status).toBe(200);
    expect(sandbox.throttle.stats().accounts[0]).toMatchObject({ accepted: 3, throttled: 0, inFlight: 0, maxInFlight: 1 });
  });
});
