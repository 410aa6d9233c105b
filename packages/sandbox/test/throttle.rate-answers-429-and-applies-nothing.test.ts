import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { receiver } from './control-harness.ts';
import { authorisedOrder, cardPayment } from './harness.ts';
import { fire, fireAll, ready, sleep } from './throttle-harness.ts';

describe('throttle: a rate per merchant account', () => {
  it('of 12 captures sent at once at 5 per second accepts exactly 5; the 7 others get 429 with Retry-After, nothing applied, and go through after the wait', async () => {
    await using sandbox = await startSandbox();
    const orders = [];
    for (let i = 0; i < 12; i++) orders.push(await authorisedOrder(sandbox));
    const captures = await Promise.all(orders.map((order) => ready('capture', { capture_orders: [order] })));
    sandbox.throttle.set({ ratePerSecond: 5 });

    const replies = await fireAll(sandbox, captures);
    const accepted = replies.flatMap((r, i) => (r.status === 200 ? [i] : []));
    const throttled = replies.flatMap((r, i) => (r.status === 429 ? [i] : []));
    expect([accepted.length, throttled.length]).toEqual([5, 7]);
    for (const i of throttled) {
      const reply = replies[i]!;
      expect(Number(reply.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(reply.retryAfter).toMatch(/^\d+$/);
      expect(reply.json).toMatchObject({ return_status: '0', errors: [{ path: 'throttle.ratePerSecond' }] });
    }
    // Applied for the accepted ones only: the throttled orders are still authorised, captured by no one.
    const states = orders.map((o) => sandbox.state.orders.get(o.transaction_id)!.state);
    expect(accepted.map((i) => states[i])).toEqual(Array(5).fill('captured'));
    expect(throttled.map((i) => states[i])).toEqual(Array(7).fill('authorised'));
    expect(sandbox.state.appliedCounts('capture').size).toBe(5);
    expect(sandbox.state.requests.filter((r) => r.throttled).map((r) => [r.outcome, r.processed])).toEqual(Array(7).fill(['refused', false]));

    const wait = Math.max(...throttled.map((i) => Number(replies[i]!.retryAfter)));
    await sleep(wait * 1000); // waiting as Retry-After said is the behaviour under test: the window must have moved on
    const again = await fireAll(
      sandbox,
      throttled.slice(0, 5).map((i) => captures[i]!),
    );
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(sandbox.state.appliedCounts('capture').size).toBe(10);
    expect(sandbox.state.invariantViolations()).toEqual([]);
    const stats = sandbox.throttle.stats();
    expect([stats.accepted, stats.throttled]).toEqual([10, 7]);
    expect(stats.accounts[0]).toMatchObject({
      merchantId: 'M100200',
      accountId: 'A300400',
      accepted: 10,
      throttled: 7,
      throttledBy: { rate: 7, inFlight: 0, fault: 0 },
      inFlight: 0,
    });
    expect(stats.perSecond.reduce((n, s) => n + s.accepted, 0)).toBe(10);
    for (const second of stats.perSecond) expect(second.accepted).toBeLessThanOrEqual(5);
  });

  it('a throttled payment makes no order and sends no notification', async () => {
    const hook = await receiver();
    try {
      await using sandbox = await startSandbox({ throttle: { ratePerSecond: 1 }, notify: { baseDelayMs: 5 } });
      const payments = [cardPayment({ notify_url: hook.url }), cardPayment({ notify_url: hook.url })];
      const replies = await fireAll(sandbox, await Promise.all(payments.map((p) => ready('authoriseCard', p))));
      expect(replies.map((r) => r.status).sort()).toEqual([200, 429]);
      await sandbox.notificationsIdle();
      expect(sandbox.state.orders.size).toBe(1);
      expect(sandbox.state.notifications).toHaveLength(1);
      expect(hook.events).toHaveLength(1);
      const paid = payments[replies.findIndex((r) => r.status === 200)]!;
      expect([...sandbox.state.orders.values()][0]!.orderNo).toBe(paid.order_no);
    } finally {
      await hook.close();
    }
  });

  it('only accepted requests count: a client that keeps sending while throttled is let in again once a second has passed since the accepted ones', async () => {
    await using sandbox = await startSandbox({ throttle: { ratePerSecond: 2 } });
    const query = await ready('query', { order_no: 'X' });
    const started = performance.now();
    const statuses: number[] = [];
    // Two accepted at once, then a request every 100 ms: throttled until 1000 ms after the first two, then accepted.
    statuses.push(...(await fireAll(sandbox, [query, query])).map((r) => r.status));
    while (performance.now() - started < 1400) {
      statuses.push((await fire(sandbox, query)).status);
      await sleep(100); // the client's pace is the case under test: a request every 100 ms
    }
    const after = statuses.slice(2);
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(after[0]).toBe(429);
    expect(after.indexOf(200)).toBeGreaterThan(0);
    const stats = sandbox.throttle.stats();
    expect(stats.accepted + stats.throttled).toBe(statuses.length);
    expect(stats.accepted).toBe(statuses.filter((s) => s === 200).length);
  });
});
