import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { createDatabase, startCluster, type Cluster } from '@gw/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@gw/test-support';
import { newBatchId, outcomesFromLedger } from '../src/index.ts';
import { start, type Child } from './fleet/fleet-round.ts';
import { authorisedOrders } from './harness.ts';

// PostgreSQL stopped mid-batch (pg_ctl stop -m immediate) under a coordinator process, then started again. This file
// has a cluster of its own: stopping the run's shared one would break the other files' tests.
const ORDERS = 600; // 12 chunks of 50
const OUTAGE_BUDGET_MS = 3000; // the 30 s default scaled down; the long outage lasts twice the budget
const TIMING = { LEASE_MS: '2500', TIMEOUT_MS: '1500', SEND_MARGIN_MS: '300', CONCURRENCY: '2', LEDGER_OUTAGE_MS: String(OUTAGE_BUDGET_MS) };

let sandbox: Sandbox;
let cluster: Cluster;
beforeAll(async () => {
  sandbox = await startSandbox({ faults: { '*': { latencyMs: 100 } } });
  cluster = await startCluster();
});
afterAll(async () => {
  cluster?.stop();
  await sandbox?.stop();
});

const captured = (orders: readonly { transaction_id: string }[]) => orders.map((o) => sandbox.state.appliedCounts('capture').get(o.transaction_id) ?? 0);

/** A capture batch of fresh orders under a coordinator process; PostgreSQL is halted once a tenth of them took effect. */
async function batchWithAnOutage(outageMs: number) {
  const orders = await authorisedOrders(sandbox, ORDERS, '6.00');
  const dir = mkdtempSync(join(tmpdir(), 'gw-outage-'));
  const file = join(dir, 'orders.json');
  writeFileSync(file, JSON.stringify(orders));
  const ledger = await createDatabase(cluster.url, `outage_${outageMs}_${process.pid}`);
  const env = { SANDBOX_URL: sandbox.url, LEDGER: ledger, BATCH: newBatchId(), ORDERS: file, ...TIMING };
  const coordinator: Child = start({ ...env, ROLE: 'run', HOLDER: 'coordinator' });
  await until(() => captured(orders).filter((n) => n > 0).length >= ORDERS / 10, 30_000, 'a tenth of the captures');
  cluster.halt();
  const sentBefore = captured(orders).filter((n) => n > 0).length;
  await new Promise((r) => setTimeout(r, outageMs));
  // Nothing was leased while the ledger was down: at most the chunks in hand when it went (2 in flight, 2 leased ahead:
  // the worker learns of the outage at its next statement) went out.
  const sentDuring = captured(orders).filter((n) => n > 0).length - sentBefore;
  cluster.restart();
  return { orders, env, coordinator, sentDuring, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every order captured exactly once by the sandbox, and exactly one outcome each in the ledger, all succeeded. */
async function expectEachCapturedOnce(run: Awaited<ReturnType<typeof batchWithAnOutage>>): Promise<void> {
  expect(captured(run.orders).filter((n) => n !== 1)).toEqual([]);
  const outcomes = await outcomesFromLedger(run.env.LEDGER, run.env.BATCH);
  expect(outcomes.map((o) => o.index)).toEqual(run.orders.map((_, i) => i));
  expect(outcomes.filter((o) => o.kind !== 'succeeded')).toEqual([]);
}

describe('PostgreSQL stopped under a running batch', () => {
  it('for 1 s: the worker reconnects and finishes, sending nothing new meanwhile; every order captured once, exit 0', async () => {
    const run = await batchWithAnOutage(1000);
    try {
      const exit = await run.coordinator.exited;
      expect(exit.code, exit.stderr + exit.stdout).toBe(0);
      expect(run.sentDuring).toBeLessThanOrEqual(2 * 2 * 50);
      await expectEachCapturedOnce(run);
    } finally {
      run.cleanup();
    }
  }, 90_000);

  it(`for twice the outage budget: a typed stop (LedgerUnavailableError, GW_INTERRUPTED) naming the batch and --resume; the resume finishes with every order captured once`, async () => {
    const run = await batchWithAnOutage(2 * OUTAGE_BUDGET_MS);
    try {
      const exit = await run.coordinator.exited;
      expect(exit.code, exit.stderr).toBe(3);
      const { error } = JSON.parse(exit.stdout) as { error: { name: string; code: string; message: string; details: Record<string, unknown> } };
      expect(error).toMatchObject({ name: 'LedgerUnavailableError', code: 'GW_INTERRUPTED', details: { batch: run.env.BATCH, next: 'resume' } });
      expect(error.message).toContain(`--batch ${run.env.BATCH} --resume`);
      expect(run.sentDuring).toBeLessThanOrEqual(2 * 2 * 50);
      expect(captured(run.orders).filter((n) => n > 1)).toEqual([]);
      const resumed = await start({ ...run.env, ROLE: 'resume' }).exited;
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      await expectEachCapturedOnce(run);
    } finally {
      run.cleanup();
    }
  }, 120_000);
});
