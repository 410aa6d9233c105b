import { until } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORDER_ERRORS,
  RedirectPaymentError,
  SANDBOX_PAYMENT_STATUS,
  expireDuePayments,
  settleRedirectPayment,
  startSandbox,
  type Sandbox,
} from '../src/index.ts';
import { send } from './harness.ts';
import { createAlternative, createCheckout, notificationSink, page, type NotificationSink } from './pages-harness.ts';

let sink: NotificationSink;
beforeAll(async () => {
  sink = await notificationSink();
});
afterAll(() => sink.server.close());

describe('an abandoned redirect payment', () => {
  it('expires on its own after redirectExpiryMs, notified then, and its page says so', async () => {
    await using sandbox = await startSandbox({ redirectExpiryMs: 150, notify: { baseDelayMs: 10 } });
    const order = await createCheckout(sandbox, { notify_url: sink.url });
    await until(() => sandbox.state.orders.get(order.transactionId)?.state === 'expired', 5000, 'the sweep to expire the abandoned order');
    expect((await send(sandbox, 'query', { order_no: order.orderNo })).json.orders_list[0].payment_status).toBe(SANDBOX_PAYMENT_STATUS.expired);
    await sandbox.notificationsIdle();
    expect(sink.bodies.filter((b) => b.transaction_id === order.transactionId)).toEqual([
      expect.objectContaining({ order_status: '0', result_info: expect.stringMatching(/^2021:/) }),
    ]);
    expect(sink.events.filter((e) => (e.data as { transaction_id?: string }).transaction_id === order.transactionId).map((e) => e.kind)).toEqual([
      'payment.expired',
    ]);
    expect(sink.refused).toEqual([]);
    const reply = await page(order.action, { sandbox_action: 'pay', card_number: '4111111111111111', expiry: '12/30', cvv: '123', holder: 'A' });
    expect(reply.html).toContain('Payment expired');
    const capture = await send(sandbox, 'capture', {
      capture_orders: [{ transaction_id: order.transactionId, order_no: order.orderNo, currency: 'USD', amount: '59.90' }],
    });
    expect(capture.json.capture_orders[0].error_message).toBe(ORDER_ERRORS.expired);
  });

  it('expires exactly the orders whose deadline passed on the given clock (expireDuePayments)', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    await using sandbox = await startSandbox({ clock: () => now, redirectExpiryMs: 60_000 });
    const first = await createAlternative(sandbox);
    now = new Date(now.getTime() + 30_000);
    const second = await createAlternative(sandbox);
    expect(expireDuePayments(sandbox.deps, new Date(now.getTime() + 29_999))).toBe(0);
    now = new Date(now.getTime() + 30_000);
    expect(expireDuePayments(sandbox.deps, now)).toBe(1);
    expect(sandbox.state.orders.get(first.transactionId)!.state).toBe('expired');
    expect(sandbox.state.orders.get(first.transactionId)!.history.at(-1)).toMatchObject({ event: 'expired', by: 'clock' });
    expect(sandbox.state.orders.get(second.transactionId)!.state).toBe('pending');
    // Settled once: acting on the expired order is refused with a typed error.
    const settleAgain = () => settleRedirectPayment(sandbox.deps, sandbox.state.orders.get(first.transactionId)!, 'authorised', 'operator');
    expect(settleAgain).toThrow(RedirectPaymentError);
    expect(settleAgain).toThrow(
      expect.objectContaining({
        code: 'not-pending',
        details: expect.objectContaining({ transactionId: first.transactionId, state: 'expired', outcome: 'authorised' }),
      }),
    );
  });
});
