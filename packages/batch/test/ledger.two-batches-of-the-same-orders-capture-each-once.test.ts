import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let ledgerUrl: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledgerUrl = url;
});
afterEach(() => sandbox.faults.setRules({}));

describe('two batches of the same orders in one PostgreSQL ledger', () => {
  it('started at once: each order is captured once, the other batch reports it rejected "already in batch X"', async () => {
    const orders = await authorisedOrders(sandbox, 600, '18.00');
    const client = clientFor(sandbox);
    const settings = { client, operation: 'capture' as const, ledger: ledgerUrl, concurrency: 4, reconcile: sandboxReconciler };
    const [a, b] = await Promise.all([
      runBatch({ ...settings, orders, batch: 'nightly-a' }),
      runBatch({ ...settings, orders: [...orders].reverse(), batch: 'nightly-b' }),
    ]);
    for (const result of [a, b]) expect(indexesOf(result.outcomes)).toEqual(orders.map((_, i) => i));
    expect(a.counts.succeeded + b.counts.succeeded).toBe(600);
    expect(a.counts.rejected + b.counts.rejected).toBe(600);
    expect(a.counts.failed + a.counts.unknown + b.counts.failed + b.counts.unknown).toBe(0);
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id), o.order_no).toBe(1);
    expect(sandbox.state.invariantViolations()).toEqual([]);
    // Each rejection names the batch that holds the order.
    for (const [result, other] of [
      [a, 'nightly-b'],
      [b, 'nightly-a'],
    ] as const) {
      for (const o of result.outcomes.filter((x) => x.kind === 'rejected'))
        expect(o.reason).toMatch(new RegExp(`^already in batch ${other} \\(input order #\\d+\\)`));
    }
  });

  it('a replica running the same batch later sends nothing and reports every order rejected', async () => {
    const orders = await authorisedOrders(sandbox, 120, '9.00');
    const client = clientFor(sandbox);
    const first = await runBatch({ client, operation: 'capture', orders, ledger: ledgerUrl, batch: 'first' });
    expect(first.counts.succeeded).toBe(120);
    const sent = sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;
    const second = await runBatch({ client, operation: 'capture', orders, ledger: ledgerUrl, batch: 'replica' });
    expect(second.counts.rejected).toBe(120);
    expect(sandbox.state.requests.filter((r) => r.path === '/v1/capture').length).toBe(sent);
    await expect(runBatch({ client, operation: 'capture', orders, ledger: ledgerUrl, batch: 'first' })).rejects.toMatchObject({
      code: 'GW_CONFIG',
      name: 'LedgerBatchError',
    });
  });
});
