import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { LedgerBatchError, runBatch, runBatchWorker } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let ledgerUrl: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledgerUrl = url;
});

describe('workers of a ledger batch that have nothing left to lease', () => {
  it('return as soon as another process commits the last chunk, not at their next poll', async () => {
    const orders = await authorisedOrders(sandbox, 400, '7.00');
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 150 } });
    const batch = 'idle-at-the-end';
    const settings = { client: clientFor(sandbox), ledger: ledgerUrl, batch, reconcile: sandboxReconciler, concurrency: 2 };
    // The workers poll once a minute: only the ledger's notification can tell them the batch is over in time.
    const workers = [1, 2].map(() => runBatchWorker({ ...settings, pollMs: 60_000 }).then((result) => ({ result, at: performance.now() })));
    const run = await runBatch({ ...settings, operation: 'capture', orders });
    const ranAt = performance.now();
    const joined = await Promise.all(workers);
    sandbox.faults.setRules({});
    expect(run.counts).toEqual({ succeeded: 400, failed: 0, rejected: 0, unknown: 0 });
    // 8 chunks for 6 slots: the last ones are out in one process while the others have nothing left to lease.
    for (const { result, at } of joined) {
      expect(at - ranAt).toBeLessThan(5_000);
    }
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id)).toBe(1);
  }, 30_000);
});

describe('a worker started before its batch exists', () => {
  it('starts on the batch when its first chunks are added, not at its next poll', async () => {
    const orders = await authorisedOrders(sandbox, 300, '4.00');
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
    const batch = 'worker-before-batch';
    const settings = { client: clientFor(sandbox), ledger: ledgerUrl, batch, reconcile: sandboxReconciler, concurrency: 2 };
    // It looks for the batch once a minute: only the ledger's notification of the first chunks can start it in time.
    const worker = runBatchWorker({ ...settings, pollMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const run = await runBatch({ ...settings, operation: 'capture', orders });
    const joined = await worker;
    sandbox.faults.setRules({});
    expect(run.counts).toEqual({ succeeded: 300, failed: 0, rejected: 0, unknown: 0 });
    // 6 chunks of 50 at 100 ms each, two slots in each process: the worker takes its share from the start.
    expect(joined.worker.chunks).toBeGreaterThanOrEqual(2);
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id)).toBe(1);
  }, 30_000);

  it('gives up at batchWaitMs with a LedgerBatchError when the batch never comes, whatever its poll', async () => {
    const started = performance.now();
    const worker = runBatchWorker({
      client: clientFor(sandbox),
      ledger: ledgerUrl,
      batch: 'never-created',
      reconcile: sandboxReconciler,
      pollMs: 60_000,
      batchWaitMs: 300,
    });
    await expect(worker).rejects.toBeInstanceOf(LedgerBatchError);
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 30_000);
});
