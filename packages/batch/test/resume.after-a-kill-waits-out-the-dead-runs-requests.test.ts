import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeBatch, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { runCrashChild } from './crash-child-run.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('a journal resumed at once after its run was killed with a request in flight', () => {
  it("waits until the dead run's request is over before querying: the refund it sent lands first, and is not sent again", async () => {
    const orders = await authorisedOrders(sandbox, 100, '40.00');
    expect((await runBatch({ client: clientFor(sandbox), operation: 'capture', orders })).counts.succeeded).toBe(100);
    const refunds = orders.map((o) => ({ ...o, refund_amount: '15.00', refund_reason: 'killed mid-send' }));
    const dir = mkdtempSync(join(tmpdir(), 'gw-kill-wait-'));
    const file = join(dir, 'orders.json');
    writeFileSync(file, JSON.stringify(refunds));
    const journal = join(dir, 'journal.jsonl');
    // The gateway takes 1.5 s before it applies a refund; the run (request timeout 2.5 s) is killed 0.2 s after its
    // first refund left, so that refund is applied about 1.3 s after the kill, by a gateway nobody waits on any more.
    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 1500 } });
    const killed = await runCrashChild({
      SANDBOX_URL: sandbox.url,
      JOURNAL: journal,
      OPERATION: 'refund',
      ORDERS: file,
      CRASH_STAGE: 'intent-written',
      CRASH_CHUNK: '1',
      CRASH_DELAY_MS: '200',
      TIMEOUT_MS: '2500',
    });
    expect(killed.signal).toBe('SIGKILL');
    // Resumed at once, with the same timeout: a query now would find the order not yet refunded, and send it again.
    const started = Date.now();
    const result = await resumeBatch({
      client: clientFor(sandbox),
      journal,
      orders: refunds,
      reconcile: sandboxReconciler,
      timeoutMs: 2500,
      sendMarginMs: 200,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    sandbox.faults.setRules({});
    expect(indexesOf(result.outcomes)).toEqual(refunds.map((_, i) => i));
    const refundsPerOrder = orders.map((o) => sandbox.state.orders.get(o.transaction_id)!.refunds.length);
    expect(refundsPerOrder.filter((n) => n !== 1)).toEqual([]);
    // The killed run's two chunks (concurrency 2): the query shows a refund it cannot tell from an earlier one, so they
    // end unknown with how to check, never resent. (Without the wait, every order was refunded twice.)
    expect(result.outcomes.filter((o) => o.kind !== 'succeeded' && o.kind !== 'unknown')).toEqual([]);
  }, 60_000);
});
