// A checkout order waits `pending` for the shopper. A capture batch that meets one fails that order with the
// sandbox's reason, captures the others, and (its answer lost) reconciles it as not applied rather than unknown.
import { createClient } from '@gw/client';
import { ORDER_ERRORS, SANDBOX_DEFAULT_MERCHANT, sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, signer } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function pendingCheckout(orderNo: string) {
  const client = createClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer });
  const page = await client.checkout({ order_no: orderNo, currency: 'USD', amount: '25.00', return_url: 'https://shop.example.test/back' });
  await client.close();
  const transactionId = decodeURIComponent(page.action.split('/').pop()!);
  return { transaction_id: transactionId, order_no: orderNo, currency: 'USD', amount: '25.00' };
}

describe('a capture batch meeting orders that wait for the shopper', () => {
  it('fails the pending order with E211 and captures the authorised ones', async () => {
    const authorised = await authorisedOrders(sandbox, 2);
    const pending = await pendingCheckout(`PENDING-${process.pid}-1`);
    const result = await runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders: [authorised[0]!, pending, authorised[1]!],
      reconcile: sandboxReconciler,
    });
    expect(result.counts).toEqual({ succeeded: 2, failed: 1, rejected: 0, unknown: 0 });
    const failed = result.outcomes.find((o) => o.kind === 'failed')!;
    expect(failed).toMatchObject({ index: 1, reason: expect.stringContaining(ORDER_ERRORS.pending.split(':')[1]!) });
    expect(sandbox.state.appliedCounts('capture').get(pending.transaction_id) ?? 0).toBe(0);
  });

  it('reconciles a pending order whose capture answer was lost as not applied, never unknown', async () => {
    const pending = await pendingCheckout(`PENDING-${process.pid}-2`);
    sandbox.faults.inject('/v1/capture', 'reset-after', 2);
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders: [pending], reconcile: sandboxReconciler, maxResends: 1 });
    expect(result.counts).toMatchObject({ unknown: 0, succeeded: 0, failed: 1 });
    expect(result.outcomes[0]!.reconciled).toBe(true);
  });
});
