// An order a query showed not applied after its last allowed send is answered: it is `failed`, safe to send
// again, not `unknown` with advice to query (the query already answered).
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('an order a query shows not applied once its resends are spent', () => {
  it('is failed, says it is safe to send again, and sending it again captures it once', async () => {
    const orders = await authorisedOrders(sandbox, 2, '12.00');
    // Both sends of the chunk (the first and the one resend maxResends 1 allows) are cut before the sandbox acts.
    sandbox.faults.inject('/v1/capture', 'reset-before', 2);
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, reconcile: sandboxReconciler, maxResends: 1 });
    expect(result.counts).toEqual({ succeeded: 0, failed: 2, rejected: 0, unknown: 0 });
    for (const outcome of result.outcomes) {
      expect(outcome.reason).toMatch(/after 2 sends.*has not taken effect.*safe to send again/);
      expect(outcome.reconciled).toBe(true);
      expect(outcome.reconcile).toBeUndefined();
    }
    for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id) ?? 0).toBe(0);

    const again = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, reconcile: sandboxReconciler });
    expect(again.counts.succeeded).toBe(2);
    for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
  });
});
