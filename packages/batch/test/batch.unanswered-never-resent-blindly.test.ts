import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('a chunk whose request got no answer', () => {
  it('is reported unknown with how to reconcile when the gateway codes cannot tell (the default), and is not sent again', async () => {
    const orders = await authorisedOrders(sandbox, 3);
    sandbox.faults.inject('/v1/capture', 'reset-after');
    const before = sandbox.state.requestCount;
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders });
    expect(result.counts).toEqual({ succeeded: 0, failed: 0, rejected: 0, unknown: 3 });
    expect(result.outcomes[0]!.reconcile).toContain(`query order_no ${orders[0]!.order_no}`);
    // One capture request (applied, unanswered) and one query: nothing resent.
    expect(sandbox.state.requests.slice(-2).map((r) => r.path)).toEqual(['/v1/capture', '/v1/retrievalTrans']);
    expect(sandbox.state.requestCount - before).toBe(2);
    for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
  });

  it('is settled by query: applied orders succeed without a resend, unapplied ones are sent again once', async () => {
    const applied = await authorisedOrders(sandbox, 2);
    sandbox.faults.inject('/v1/capture', 'reset-after');
    const first = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders: applied, reconcile: sandboxReconciler });
    expect(first.outcomes.map((o) => [o.kind, o.reconciled])).toEqual([
      ['succeeded', true],
      ['succeeded', true],
    ]);

    const notApplied = await authorisedOrders(sandbox, 2);
    sandbox.faults.inject('/v1/capture', 'reset-before');
    const second = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders: notApplied, reconcile: sandboxReconciler });
    expect(second.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'succeeded']);
    for (const o of [...applied, ...notApplied]) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
  });
});
