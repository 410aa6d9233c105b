// A ledger reached through PgBouncer (Debian's, as teams run it) in front of the test run's cluster. In transaction
// mode (4 server connections for the database, fewer than the clients) a batch finishes with every order captured
// once; its workers poll, said once, unless a direct listen URL wakes them; a listen URL through the pooler, statement
// pooling and a read-only server are refused at start, naming the setting, with nothing sent. One process's intake
// lease outlives it only until it expires. In session mode it works as a direct connection does.
import pg from 'pg';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { startPgBouncer, type PgBouncer } from '@gw/test-postgres';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { LedgerConnectionError, runBatch, runBatchWorker } from '../src/index.ts';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let direct: string;
let transaction: PgBouncer;
let statement: PgBouncer;
let session: PgBouncer;
sandboxAndDatabaseForFile((started, _url, directUrl) => {
  sandbox = started;
  // The run's own ledgers may already go through a pooler (GW_TEST_LEDGER=pgbouncer): this file puts its own in front.
  direct = directUrl;
});

beforeAll(async () => {
  const admin = { url: inject('postgres').url! };
  transaction = await startPgBouncer(admin, { poolMode: 'transaction', poolSize: 4 });
  statement = await startPgBouncer(admin, { poolMode: 'statement', poolSize: 4 });
  session = await startPgBouncer(admin, { poolMode: 'session', poolSize: 20 });
});
afterAll(() => {
  transaction?.stop();
  statement?.stop();
  session?.stop();
});

/** The capture requests the sandbox received so far. */
const captures = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

describe('a ledger behind PgBouncer in transaction mode', () => {
  it('a batch and a worker finish it, each order captured once; no notification comes through, so they poll, said once', async () => {
    const orders = await authorisedOrders(sandbox, 1_200, '6.00');
    // A gateway 400 ms away: the batch lasts longer than the proof of the wake-ups (1 s), which a shorter one ends unsaid.
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 400 } });
    onTestFinished(() => sandbox.faults.setRules({}));
    const notices: string[] = [];
    const settings = {
      client: clientFor(sandbox),
      ledger: transaction.urlFor(direct),
      batch: 'pooled',
      reconcile: sandboxReconciler,
      concurrency: 3,
      pollMs: 50,
      onNotice: (m: string) => notices.push(m),
    };
    const worker = runBatchWorker(settings);
    const run = await runBatch({ ...settings, operation: 'capture', orders });
    const joined = await worker;
    expect(run.counts).toEqual({ succeeded: 1_200, failed: 0, rejected: 0, unknown: 0 });
    expect(joined.counts).toEqual(run.counts);
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id)).toBe(1);
    // Each process says it once (its first listen proves nothing arrives; it listens no more).
    expect(notices).toHaveLength(2);
    for (const notice of notices) expect(notice).toMatch(/delivered no notification .*--ledger-listen-url/);
  }, 60_000);

  it("with a direct listen URL, a worker polling once a minute is woken by the batch's first chunks", async () => {
    const orders = await authorisedOrders(sandbox, 300, '4.00');
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
    const notices: string[] = [];
    const settings = {
      client: clientFor(sandbox),
      ledger: transaction.urlFor(direct),
      ledgerListen: direct,
      batch: 'pooled-woken',
      reconcile: sandboxReconciler,
      concurrency: 2,
      onNotice: (m: string) => notices.push(m),
    };
    const worker = runBatchWorker({ ...settings, pollMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const run = await runBatch({ ...settings, operation: 'capture', orders });
    const joined = await worker;
    sandbox.faults.setRules({});
    expect(run.counts.succeeded).toBe(300);
    expect(joined.worker.chunks).toBeGreaterThanOrEqual(2);
    expect(notices).toEqual([]);
  }, 30_000);

  it('a listen URL through the pooler is refused at start, naming --ledger-listen-url; nothing is sent', async () => {
    const orders = await authorisedOrders(sandbox, 50, '3.00');
    const before = captures();
    const pooled = transaction.urlFor(direct);
    const run = runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders,
      ledger: pooled,
      ledgerListen: pooled,
      batch: 'listen-pooled',
      reconcile: sandboxReconciler,
    });
    await expect(run).rejects.toBeInstanceOf(LedgerConnectionError);
    await expect(run).rejects.toMatchObject({ code: 'GW_CONFIG', details: { setting: expect.stringContaining('--ledger-listen-url') } });
    expect(captures()).toBe(before);
  }, 30_000);

  it('a pooler in statement mode is refused at start, naming pool_mode; nothing is sent', async () => {
    const orders = await authorisedOrders(sandbox, 50, '3.00');
    const before = captures();
    const run = runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders,
      ledger: statement.urlFor(direct),
      batch: 'statement-mode',
      reconcile: sandboxReconciler,
    });
    await expect(run).rejects.toMatchObject({ name: 'LedgerConnectionError', details: { setting: expect.stringContaining('pool_mode') } });
    expect(captures()).toBe(before);
  }, 30_000);

  it("a process's intake lease is another's only once it has expired unrenewed (the process gone)", async () => {
    const pooled = transaction.urlFor(direct);
    const first = await PgLedger.open(pooled);
    const second = await PgLedger.open(pooled);
    try {
      await first.createBatch('intake-lease', 'capture', 50);
      expect(await first.tryIntakeLease('intake-lease', 'first', 400)).not.toBeNull();
      // Renewed every third of its length while its process lives.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await second.tryIntakeLease('intake-lease', 'second', 400)).toBeNull();
      await first.close(); // the process is gone: nobody renews its lease
      await new Promise((resolve) => setTimeout(resolve, 500));
      const taken = await second.tryIntakeLease('intake-lease', 'second', 400);
      expect(taken).not.toBeNull();
      await taken!.release();
    } finally {
      await second.close();
    }
  }, 30_000);
});

describe('a ledger behind PgBouncer in session mode', () => {
  it('works as a direct connection does: a batch and a worker finish it, each order captured once, woken through the pooler, nothing to say', async () => {
    const orders = await authorisedOrders(sandbox, 300, '7.00');
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 50 } });
    const notices: string[] = [];
    const settings = {
      client: clientFor(sandbox),
      ledger: session.urlFor(direct),
      batch: 'session-pooled',
      reconcile: sandboxReconciler,
      concurrency: 2,
      onNotice: (m: string) => notices.push(m),
    };
    // A worker that would otherwise look once a minute: only a notification through the session pooler starts it.
    const worker = runBatchWorker({ ...settings, pollMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const run = await runBatch({ ...settings, operation: 'capture', orders });
    const joined = await worker;
    sandbox.faults.setRules({});
    expect(run.counts).toEqual({ succeeded: 300, failed: 0, rejected: 0, unknown: 0 });
    expect(joined.worker.chunks).toBeGreaterThanOrEqual(1);
    expect(notices).toEqual([]);
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id)).toBe(1);
  }, 30_000);
});

describe('a ledger whose server only reads', () => {
  it("is refused at start, naming the URL to change (the primary's address); nothing is sent", async () => {
    const orders = await authorisedOrders(sandbox, 50, '3.00');
    const before = captures();
    const name = new URL(direct).pathname.slice(1);
    const admin = new pg.Client({ connectionString: direct.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    try {
      const run = runBatch({ client: clientFor(sandbox), operation: 'capture', orders, ledger: direct, batch: 'read-only', reconcile: sandboxReconciler });
      await expect(run).rejects.toMatchObject({ name: 'LedgerConnectionError', details: { setting: expect.stringContaining("the primary's address") } });
      expect(captures()).toBe(before);
    } finally {
      await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await admin.end();
    }
  }, 30_000);
});
