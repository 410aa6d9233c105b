import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchInterruptedError, resumeBatch, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { freshDatabase } from './pg/database.ts';

let sandbox: Sandbox;
let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  sandbox = await startSandbox();
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
  await sandbox.stop();
});

describe('a ledger batch stopped by its signal part way and resumed by another process', () => {
  for (const stopAfterMs of [0, 80]) {
    it(`stopped after ${stopAfterMs} ms: the resume finishes it, every order succeeded once`, async () => {
      const orders = await authorisedOrders(sandbox, 300, '4.00');
      const client = clientFor(sandbox);
      const batch = `stopped-${stopAfterMs}`;
      const stop = new AbortController();
      setTimeout(() => stop.abort(), stopAfterMs);
      const first = await runBatch({ client, operation: 'capture', orders, ledger: db.url, batch, reconcile: sandboxReconciler, signal: stop.signal }).catch((e: unknown) => e);
      if (!(first instanceof BatchInterruptedError)) expect(first).toMatchObject({ counts: { succeeded: 300 } });
      const resumed = await resumeBatch({ client, orders, ledger: db.url, batch, reconcile: sandboxReconciler });
      expect(resumed.outcomes.filter((o) => o.kind !== 'succeeded')).toEqual([]);
      expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id), o.order_no).toBe(1);
    });
  }
});
