import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { BatchInterruptedError, resumeBatch, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let ledgerUrl: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledgerUrl = url;
});

describe('a ledger batch stopped by its signal part way and resumed by another process', () => {
  for (const stopAfterMs of [0, 80]) {
    it(`stopped after ${stopAfterMs} ms: the resume finishes it, every order succeeded once`, async () => {
      const orders = await authorisedOrders(sandbox, 300, '4.00');
      const client = clientFor(sandbox);
      const batch = `stopped-${stopAfterMs}`;
      const stop = new AbortController();
      setTimeout(() => stop.abort(), stopAfterMs);
      // Answers take 100 ms (6 chunks, 4 at a time: at least 200 ms), so the stop always comes part way.
      sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
      const first = await runBatch({ client, operation: 'capture', orders, ledger: ledgerUrl, batch, reconcile: sandboxReconciler, signal: stop.signal }).catch(
        (e: unknown) => e,
      );
      sandbox.faults.setRules({});
      expect(first).toBeInstanceOf(BatchInterruptedError);
      const capturedByTheFirst = orders.filter((o) => sandbox.state.appliedCounts('capture').get(o.transaction_id) === 1).length;
      expect(capturedByTheFirst).toBeLessThan(300);
      const resumed = await resumeBatch({ client, orders, ledger: ledgerUrl, batch, reconcile: sandboxReconciler });
      expect(resumed.outcomes.filter((o) => o.kind !== 'succeeded')).toEqual([]);
      expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id), o.order_no).toBe(1);
    });
  }

  it('a resume started while the first process is still taking the input in waits for its intake: nothing rejected as already in its own batch', async () => {
    const orders = await authorisedOrders(sandbox, 1500, '5.00');
    const client = clientFor(sandbox);
    const settings = { client, orders, ledger: ledgerUrl, batch: 'concurrent-intake', reconcile: sandboxReconciler };
    const first = runBatch({ ...settings, operation: 'capture' });
    // The resume joins as soon as the batch exists (its intake is under way then).
    let second: Promise<unknown> | null = null;
    while (second === null) {
      const exists = await resumeBatch({ ...settings, signal: AbortSignal.abort() }).then(
        () => true,
        (e: unknown) => !(e instanceof Error && e.name === 'LedgerBatchError'),
      );
      if (exists) second = resumeBatch(settings);
    }
    const [a, b] = (await Promise.all([first, second])) as Awaited<typeof first>[];
    for (const result of [a!, b!]) {
      expect(result.counts).toEqual({ succeeded: 1500, failed: 0, rejected: 0, unknown: 0 });
      expect(indexesOf(result.outcomes)).toEqual(orders.map((_, i) => i));
    }
    for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id), o.order_no).toBe(1);
  });
});
