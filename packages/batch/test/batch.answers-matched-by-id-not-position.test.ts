import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { answersRewritten, authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('result elements are matched to orders by the ids they echo', () => {
  it('takes each element for its own order when the answer lists them in another order, and settles a missing one by query', async () => {
    const orders = await authorisedOrders(sandbox, 60);
    const real = clientFor(sandbox);
    // A gateway that answers in reverse order and leaves one element out (the request itself is real and applied).
    const reordering = answersRewritten(real, (response) => {
      const elements = [...(response.capture_orders as Record<string, unknown>[])].reverse().filter((e) => e.transaction_id !== orders[7]!.transaction_id);
      return { ...response, capture_orders: elements };
    });
    const result = await runBatch({ client: reordering, operation: 'capture', orders, reconcile: sandboxReconciler });
    expect(result.counts).toEqual({ succeeded: 60, failed: 0, rejected: 0, unknown: 0 });
    for (const outcome of result.outcomes) {
      if (outcome.index === 7) {
        expect(outcome).toMatchObject({ kind: 'succeeded', reconciled: true });
        continue;
      }
      expect(outcome.result?.transaction_id).toBe(orders[outcome.index]!.transaction_id);
      expect(outcome.result?.order_no).toBe(orders[outcome.index]!.order_no);
    }
    for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
  });

  it('reads past elements that are not objects, settling the orders they stand in for by query', async () => {
    const orders = await authorisedOrders(sandbox, 3);
    const real = clientFor(sandbox);
    // Not what the types promise: what a broken gateway might send.
    const garbled = answersRewritten(real, (response) => ({ ...response, capture_orders: [null, 'x', ...(response.capture_orders as unknown[]).slice(2)] }));
    const result = await runBatch({ client: garbled, operation: 'capture', orders, reconcile: sandboxReconciler });
    expect(result.outcomes.map((o) => [o.kind, o.reconciled ?? false])).toEqual([
      ['succeeded', true],
      ['succeeded', true],
      ['succeeded', false],
    ]);
  });
});
