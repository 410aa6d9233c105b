// A statement the server stops whole (statement_timeout, lock_timeout, an administrator's pg_cancel_backend, a
// deadlock broken) is rolled back and may run again: the worker tries it again within its outage budget, as after a
// lost connection, and the batch finishes with each order captured once.
import pg from 'pg';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let ledgerUrl: string;
let directUrl: string;
sandboxAndDatabaseForFile((started, url, direct) => {
  sandbox = started;
  ledgerUrl = url;
  directUrl = direct;
});

describe('a ledger statement the server cancels', () => {
  it('is tried again: the batch finishes, each order captured once', async () => {
    const orders = await authorisedOrders(sandbox, 1_000, '2.00');
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 20 } });
    const admin = new pg.Client({ connectionString: directUrl });
    await admin.connect();
    const database = new URL(directUrl).pathname.slice(1);
    let cancelled = 0;
    let running = true;
    // An administrator cancelling the ledger's statements as they run, 10 of them, 300 ms apart: each one the worker
    // tries again after its first backoff (100 ms). (One statement cancelled on every try would be an outage: after
    // ledgerOutageMs the batch stops with LedgerUnavailableError and is resumed.)
    const canceller = (async () => {
      while (running && cancelled < 10) {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*) FILTER (WHERE pg_cancel_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%gw_batch%'",
          [database],
        );
        cancelled += rows[0]!.n;
        await new Promise((resolve) => setTimeout(resolve, rows[0]!.n > 0 ? 300 : 2));
      }
    })();
    try {
      const result = await runBatch({
        client: clientFor(sandbox),
        operation: 'capture',
        orders,
        ledger: ledgerUrl,
        batch: 'cancelled',
        reconcile: sandboxReconciler,
        concurrency: 4,
      });
      expect(result.counts).toEqual({ succeeded: 1_000, failed: 0, rejected: 0, unknown: 0 });
    } finally {
      running = false;
      await canceller;
      await admin.end();
      sandbox.faults.setRules({});
    }
    // The test means nothing unless statements were cancelled.
    expect(cancelled).toBeGreaterThan(0);
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id)).toBe(1);
  }, 60_000);
});
