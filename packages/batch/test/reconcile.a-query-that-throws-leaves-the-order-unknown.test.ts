// Every failure after sending is an unknown outcome, whatever threw, and that covers reconciliation: a
// query (or a reconciler) that throws leaves the order unknown, with how to check it, never failed and never resent.
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, type BatchClient, type Reconciler } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const THROWERS: readonly { name: string; query?: () => never; reconcile?: Reconciler }[] = [
  {
    name: 'a query that throws a bare RangeError (an answer too deep to walk)',
    query: () => {
      throw new RangeError('Maximum call stack size exceeded');
    },
  },
  {
    name: 'a query that throws a plain Error without a code',
    query: () => {
      throw new Error('verification service unavailable');
    },
  },
  {
    name: 'a reconciler that throws',
    reconcile: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'payment_status')");
    },
  },
];

describe('an unanswered capture whose reconciliation throws', () => {
  for (const thrower of THROWERS) {
    it(`${thrower.name}: the orders end unknown with how to check them, the batch finishes, nothing is resent`, async () => {
      const orders = await authorisedOrders(sandbox, 3, '26.00');
      const real = clientFor(sandbox);
      const client: BatchClient = thrower.query ? { ...real, query: thrower.query } : real;
      sandbox.faults.inject('/v1/capture', 'reset-after');
      const result = await runBatch({ client, operation: 'capture', orders, reconcile: thrower.reconcile ?? sandboxReconciler });
      expect(result.counts).toEqual({ succeeded: 0, failed: 0, rejected: 0, unknown: 3 });
      result.outcomes.forEach((o, i) => {
        expect(o.reconcile).toContain(`query order_no ${orders[i]!.order_no}`);
        expect(o.reason).toMatch(/Maximum call stack|verification service unavailable|Cannot read properties/);
      });
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
    });
  }
});
