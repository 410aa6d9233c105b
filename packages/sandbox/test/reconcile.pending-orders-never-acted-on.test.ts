import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PAYMENT_STATUS, expireDuePayments, sandboxReconciler, startSandbox, type Sandbox } from '../src/index.ts';
import { send } from './harness.ts';
import { createCheckout } from './pages-harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('sandboxReconciler and orders waiting for the shopper', () => {
  it('reads a pending or expired order as not applied for every operation, as the sandbox refuses them all', async () => {
    const pending = await createCheckout(sandbox);
    const expired = await createCheckout(sandbox);
    sandbox.state.orders.get(expired.transactionId)!.expiresAt = new Date(0);
    expect(expireDuePayments(sandbox.deps, new Date())).toBe(1);
    for (const [order, status] of [
      [pending, SANDBOX_PAYMENT_STATUS.pending],
      [expired, SANDBOX_PAYMENT_STATUS.expired],
    ] as const) {
      const queried = (await send(sandbox, 'query', { order_no: order.orderNo })).json.orders_list[0];
      expect(queried.payment_status).toBe(status);
      for (const operation of ['capture', 'cancel', 'review', 'refund'] as const) {
        const element = { transaction_id: order.transactionId, order_no: order.orderNo, currency: 'USD', amount: '59.90', review_flag: '0' };
        expect(sandboxReconciler({ operation, order: element, queried }), `${operation} of ${status}`).toBe('not-applied');
      }
    }
  });
});
