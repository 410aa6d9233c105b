import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { api, receiver, until } from './control-harness.ts';
import { authorisedOrder, orderNo, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ notify: { baseDelayMs: 5 } });
});
afterAll(() => sandbox.stop());

async function capturedAndRefunded(amount = '100.00'): Promise<{ transactionId: string; orderNo: string }> {
  const element = await authorisedOrder(sandbox, amount);
  await send(sandbox, 'capture', { capture_orders: [element] });
  await send(sandbox, 'refund', { refund_orders: [{ ...element, refund_amount: '30.25', refund_reason: 'damaged' }] });
  return { transactionId: element.transaction_id, orderNo: element.order_no };
}

/** A checkout order as the redirect lifecycle leaves it before the shopper acts: pending. */
async function pendingCheckout(notifyUrl: string): Promise<string> {
  const order = orderNo('CHK');
  expect(
    (await send(sandbox, 'checkout', { order_no: order, currency: 'USD', amount: '12.00', notify_url: notifyUrl, return_url: 'https://shop.example.test/ok' }))
      .status,
  ).toBe(200);
  const stored = sandbox.state.ordersByNo.get(`M100200\u0000${order}`)!;
  expect(stored.state).toBe('pending'); // a checkout order waits for the shopper (or an operator)
  return stored.transactionId;
}

describe('control API: orders', () => {
  it('lists orders newest first with amounts as decimal text, filtered by state and merchant', async () => {
    const { transactionId } = await capturedAndRefunded();
    const all = await api(sandbox, 'GET', 'orders');
    expect(all.status).toBe(200);
    expect(all.json.orders[0]).toMatchObject({
      transactionId,
      state: 'partially_refunded',
      amount: '100.00',
      capturedAmount: '100.00',
      refundedAmount: '30.25',
      currency: 'USD',
    });
    expect(all.json.orders[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const refunded = await api(sandbox, 'GET', 'orders?state=partially_refunded&merchant_id=M100200&limit=5');
    expect(refunded.json.orders.every((o: { state: string }) => o.state === 'partially_refunded')).toBe(true);
    expect(refunded.json.orders.some((o: { transactionId: string }) => o.transactionId === transactionId)).toBe(true);
    expect((await api(sandbox, 'GET', 'orders?merchant_id=M999')).json.orders).toEqual([]);
  });

  it('gives one order with its history, refunds and request fields, and never card data', async () => {
    const { transactionId, orderNo: no } = await capturedAndRefunded('80.00');
    const reply = await api(sandbox, 'GET', `orders/${transactionId}`);
    expect(reply.status).toBe(200);
    const order = reply.json.order;
    expect(order).toMatchObject({ transactionId, orderNo: no, state: 'partially_refunded', maskedCard: expect.stringMatching(/^\d{6}\*+\d{4}$/) });
    expect(order.history.map((e: { event: string }) => e.event)).toEqual(['created', 'authorised', 'captured', 'refunded']);
    expect(order.history.every((e: { by: string }) => e.by === 'api')).toBe(true);
    expect(order.refunds).toEqual([
      { transactionId, referenceId: `${transactionId}-01`, reference: expect.any(String), amount: '30.25', currency: 'USD', reason: 'damaged' },
    ]);
    expect(order.request).toMatchObject({ order_no: no, amount: '80.00' });
    for (const secret of ['4111111111111111', 'security_code', 'expiration_month', 'expiration_year', '"card":']) expect(reply.text).not.toContain(secret);
    const refunds = await api(sandbox, 'GET', 'refunds');
    expect(refunds.json.refunds).toContainEqual(expect.objectContaining({ transactionId, amount: '30.25' }));
  });

  it('refuses a bad filter naming every problem, and an unknown order with 404, as JSON errors', async () => {
    const bad = await api(sandbox, 'GET', 'orders?state=paid&limit=0&colour=red');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['state', 'limit', 'colour']);
    const missing = await api(sandbox, 'GET', 'orders/T0000');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: { code: 'not_found', message: expect.stringContaining('T0000'), details: { order: 'T0000' } } });
    const wrongMethod = await api(sandbox, 'DELETE', 'orders');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json.error.code).toBe('method_not_allowed');
  });

  it('lets an operator authorise or decline a pending order: history by operator, the notification sent then', async () => {
    const hook = await receiver();
    try {
      const approved = await pendingCheckout(hook.url);
      const declined = await pendingCheckout(hook.url);
      await sandbox.notificationsIdle();
      const before = hook.bodies.length;
      expect(before).toBe(0); // nothing is notified before the shopper or an operator acts
      // A pending order has no result yet, in the API and the console alike.
      expect((await api(sandbox, 'GET', `orders/${approved}`)).json.order).toMatchObject({
        state: 'pending',
        resultInfo: null,
        riskAction: null,
        riskScore: null,
      });
      const pendingPage = await (await fetch(`${sandbox.url}/sandbox/console/orders/${approved}`)).text();
      expect(pendingPage).toContain('none yet');
      expect(pendingPage).not.toContain('0000:Success');
      const a = await api(sandbox, 'POST', `orders/${approved}/actions/authorise`);
      expect(a.status).toBe(200);
      expect(a.json.order.state).toBe('authorised');
      expect(a.json.order.resultInfo).toBe('0000:Success');
      expect(a.json.order.history.at(-1)).toMatchObject({ event: 'authorised', by: 'operator' });
      expect((await api(sandbox, 'POST', `orders/${declined}/actions/decline`)).json.order.state).toBe('declined');
      await until(() => hook.bodies.length >= before + 2);
      expect(hook.bodies).toHaveLength(2);
      expect(hook.refused).toEqual([]);
      const sent = hook.events.slice(before);
      expect(sent).toContainEqual(
        expect.objectContaining({ kind: 'payment.authorised', data: expect.objectContaining({ transaction_id: approved, order_status: '1' }) }),
      );
      expect(sent).toContainEqual(
        expect.objectContaining({ kind: 'payment.declined', data: expect.objectContaining({ transaction_id: declined, order_status: '0' }) }),
      );
      const again = await api(sandbox, 'POST', `orders/${approved}/actions/cancel`);
      expect(again.status).toBe(409);
      expect(again.json.error).toMatchObject({ code: 'not_pending', details: { transactionId: approved, state: 'authorised' } });
      expect((await api(sandbox, 'POST', `orders/${approved}/actions/refund`)).status).toBe(404);
    } finally {
      await hook.close();
    }
  });

  it('refuses a state change from a page of another origin', async () => {
    const hook = await receiver();
    try {
      const id = await pendingCheckout(hook.url);
      const reply = await api(sandbox, 'POST', `orders/${id}/actions/authorise`, undefined, { origin: 'https://attacker.example' });
      expect(reply.status).toBe(403);
      expect(reply.json.error.code).toBe('cross_origin');
      expect(sandbox.state.orders.get(id)!.state).toBe('pending');
    } finally {
      await hook.close();
    }
  });
});
