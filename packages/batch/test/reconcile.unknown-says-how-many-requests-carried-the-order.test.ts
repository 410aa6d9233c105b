// An order whose outcome stays unknown says how many requests carried it: the ones sent more than once (a query showed
// the first not applied, then the resend got no answer either) are the ones an operator checks first.
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, type Reconciler } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('an order whose every request goes unanswered', () => {
  it('ends unknown naming how many requests carried it: one, or two when a query showed the first not applied', async () => {
    const orders = await authorisedOrders(sandbox, 2, '27.00');
    // Every capture is answered by a reset; the first order's first query says "not applied" (so it is sent again),
    // every other query cannot tell.
    sandbox.faults.setRules({ '/v1/capture': { resetAfter: 1 } });
    const queried = new Map<string, number>();
    const reconcile: Reconciler = ({ order }) => {
      const id = String(order.transaction_id);
      const times = (queried.get(id) ?? 0) + 1;
      queried.set(id, times);
      return id === orders[0]!.transaction_id && times === 1 ? 'not-applied' : 'unknown';
    };
    // One order per request: each order's story is its own.
    const results = [];
    for (const order of orders) results.push(await runBatch({ client: clientFor(sandbox), operation: 'capture', orders: [order], reconcile, sendMarginMs: 0 }));
    sandbox.faults.setRules({});
    expect(results.map((r) => r.outcomes[0]!.kind)).toEqual(['unknown', 'unknown']);
    expect(results[0]!.outcomes[0]!.reason).toBe('no answer to the capture, which 2 requests carried, and a query cannot tell whether it took effect');
    expect(results[1]!.outcomes[0]!.reason).toBe('no answer to the capture, which one request carried, and a query cannot tell whether it took effect');
  });
});
