import { describe, expect, it } from 'vitest';
import { decodeCardRespon } from '@gw/xml-codec';
import { startSandbox } from '../src/index.ts';
import { api, receiver, until } from './control-harness.ts';
import { cardPayment, orderNo, send } from './harness.ts';

const DAY = 86_400;
const start = new Date('2026-11-23T10:00:00.000Z');

describe('control API: the sandbox clock', () => {
  it('advances, and charges each active subscription whose deduction time passed: a new order, the next time, a notification', async () => {
    const hook = await receiver();
    await using sandbox = await startSandbox({ clock: () => new Date(start), notify: { baseDelayMs: 5 } });
    try {
      const payment = cardPayment({ amount: '9.99', notify_url: hook.url, subscription: { contract_name: 'Gold', interval: 'day', interval_count: '1' } });
      const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', payment)).text);
      const cancelled = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ subscription: { contract_name: 'Tin', interval: 'day' } }))).text);
      await send(sandbox, 'cancelSubscription', { recurring_id: cancelled.recurring_id, contract_name: 'Tin' });
      await sandbox.notificationsIdle();
      const before = hook.bodies.length;
      expect((await api(sandbox, 'GET', 'clock')).json).toEqual({ now: start.toISOString(), offsetMs: 0 });

      const early = await api(sandbox, 'POST', 'clock/advance', { seconds: DAY - 60 });
      expect(early.json).toMatchObject({ offsetMs: (DAY - 60) * 1000, subscriptionCharges: 0 });
      const due = await api(sandbox, 'POST', 'clock/advance', { seconds: DAY + 60 });
      expect(due.json).toMatchObject({ now: new Date(start.getTime() + 2 * DAY * 1000).toISOString(), subscriptionCharges: 2, expiredPayments: 0 });

      const subs = (await api(sandbox, 'GET', 'subscriptions')).json.subscriptions;
      expect(subs.find((s: { recurringId: string }) => s.recurringId === respon.recurring_id)).toMatchObject({
        charges: 3,
        deductionTime: '2026-11-26 10:00:00',
        status: '1',
      });
      expect(subs.find((s: { recurringId: string }) => s.recurringId === cancelled.recurring_id)).toMatchObject({ charges: 1, status: 'Inactived' });
      const charges = (await api(sandbox, 'GET', 'orders?state=captured')).json.orders;
      expect(charges.map((o: { orderNo: string }) => o.orderNo)).toEqual([`${payment.order_no}-R3`, `${payment.order_no}-R2`]);
      const charge = (await api(sandbox, 'GET', `orders/${charges[0].transactionId}`)).json.order;
      expect(charge).toMatchObject({ amount: '9.99', capturedAmount: '9.99', recurringId: respon.recurring_id, createdAt: '2026-11-25T10:00:00.000Z' });
      expect(charge.history.map((e: { event: string; by: string }) => `${e.event}/${e.by}`)).toEqual(['created/clock', 'captured/clock']);

      await until(() => hook.bodies.length === before + 2);
      const sent = hook.events.slice(before).map((e) => e.data as Record<string, unknown>);
      expect(hook.events.slice(before).map((e) => e.kind)).toEqual(['payment.authorised', 'payment.authorised']);
      expect(sent.map((n) => n.transaction_id).sort()).toEqual(charges.map((o: { transactionId: string }) => o.transactionId).sort());
      expect(sent[0]).toMatchObject({ order_status: '1', recurring_id: respon.recurring_id });
      const query = await send(sandbox, 'query', { transaction_id: respon.transaction_id });
      expect(query.json.orders_list[0].subscription_result.recurring_deduction_time).toBe('2026-11-26 10:00:00');
    } finally {
      await hook.close();
    }
  });

  it('expires pending redirect payments whose time ran out, by the clock, and sends their notification', async () => {
    const hook = await receiver();
    await using sandbox = await startSandbox({ clock: () => new Date(start), notify: { baseDelayMs: 5 } });
    try {
      const order = orderNo('CHK');
      await send(sandbox, 'checkout', { order_no: order, currency: 'USD', amount: '5.00', notify_url: hook.url });
      const stored = sandbox.state.ordersByNo.get(`M100200\u0000${order}`)!;
      // A checkout order waits for the shopper for redirectExpiryMs (default 30 minutes) on the sandbox clock.
      expect(stored.state).toBe('pending');
      expect(stored.expiresAt).toEqual(new Date(start.getTime() + 30 * 60_000));
      await sandbox.notificationsIdle();
      const before = hook.bodies.length;
      expect((await api(sandbox, 'POST', 'clock/advance', { seconds: 29 * 60 })).json.expiredPayments).toBe(0);
      expect((await api(sandbox, 'POST', 'clock/advance', { seconds: 60 })).json.expiredPayments).toBe(1);
      expect(stored.state).toBe('expired');
      await until(() => hook.bodies.length === before + 1);
      expect(hook.refused).toEqual([]);
      expect(hook.events.at(-1)).toMatchObject({ kind: 'payment.expired', operation: 'checkout', data: { order_no: order, order_status: '0' } });
      expect(stored.history.at(-1)).toMatchObject({ event: 'expired', by: 'clock' });
    } finally {
      await hook.close();
    }
  });

  it('refuses a negative or malformed advance with every problem at once', async () => {
    await using sandbox = await startSandbox();
    const reply = await api(sandbox, 'POST', 'clock/advance', { seconds: -5, minutes: 3 });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['/seconds', '/minutes']);
    expect((await api(sandbox, 'GET', 'clock')).json.offsetMs).toBe(0);
  });
});
