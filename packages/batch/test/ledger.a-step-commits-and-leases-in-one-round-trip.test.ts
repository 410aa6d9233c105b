import pg from 'pg';
import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { LEDGER_SCHEMA, LedgerBatchError, PgLedger, runBatch, type ClaimedChunk, type OrderOutcome } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { freshDatabase, ledgerForFile } from './pg/database.ts';

let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

/** `count` chunks of `size` query orders taken into batch `id`, sealed. */
async function batchOf(id: string, count: number, size: number): Promise<void> {
  await ledger.createBatch(id, 'query', size);
  const chunks = Array.from({ length: count }, (_, c) => Array.from({ length: size }, (_, k) => ({ pending: { index: c * size + k, order: { order_no: `${id}-${c * size + k}` }, resends: 0 }, key: null })));
  await ledger.intake(id, 'query', chunks, [], count * size);
  await ledger.seal(id, count * size);
}

const failedAll = (claimed: ClaimedChunk): OrderOutcome[] => claimed.orders.map((p) => ({ index: p.index, kind: 'failed', order: p.order, reason: 'test' }));

describe('a worker step in the PostgreSQL ledger', () => {
  it('commits several chunks and leases several in one round trip; a stale token commits nothing; the last step says the batch is over', async () => {
    await batchOf('steps', 10, 3);
    const before = ledger.roundTrips;
    const first = await ledger.step('steps', 'h1', 60_000, 4, []);
    expect(first.leased.map((c) => c.chunk)).toHaveLength(4);
    expect(first.finished).toBe(false);
    // Three commits under their tokens, one under a stale token (another worker took that chunk over), and 6 more leased.
    const [a, b, c, d] = first.leased as [ClaimedChunk, ClaimedChunk, ClaimedChunk, ClaimedChunk];
    const second = await ledger.step('steps', 'h1', 60_000, 6, [
      { claimed: a, outcomes: failedAll(a), resend: [] },
      { claimed: b, outcomes: failedAll(b), resend: [] },
      { claimed: c, outcomes: failedAll(c).slice(1), resend: c.orders.slice(0, 1) },
      { claimed: { ...d, fence: d.fence - 1 }, outcomes: failedAll(d), resend: [] },
    ]);
    expect([...second.held].sort()).toEqual([a.chunk, b.chunk, c.chunk].sort());
    // Never a chunk it committed in the same statement; the resend's new chunk is not visible to that statement.
    expect(second.leased).toHaveLength(6);
    expect(second.leased.some((l) => [a.chunk, b.chunk, c.chunk].includes(l.chunk))).toBe(false);
    expect(ledger.roundTrips - before).toBe(2);
    const { rows } = await ledger.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM gw_batch_outcome WHERE batch_id = 'steps'");
    expect(rows[0]!.n).toBe(3 + 3 + 2);
    // d is still leased by h1 under its current token: committing it, the 6 and then the resend finishes the batch.
    const third = await ledger.step('steps', 'h1', 60_000, 8, [d, ...second.leased].map((claimed) => ({ claimed, outcomes: failedAll(claimed), resend: [] })));
    expect(third.held.size).toBe(7);
    expect(third.leased.map((l) => l.orders.map((p) => p.index))).toEqual([[c.orders[0]!.index]]);
    expect(third.finished).toBe(false);
    const last = await ledger.step('steps', 'h1', 60_000, 8, third.leased.map((claimed) => ({ claimed, outcomes: failedAll(claimed), resend: [] })));
    expect(last.leased).toEqual([]);
    expect(last.finished).toBe(true);
    expect((await ledger.status('steps')).counts.failed).toBe(30);
  });

  it('concurrent steps of several holders lease disjoint chunks, exactly as many as each asked for while chunks last', async () => {
    await batchOf('disjoint', 40, 2);
    await ledger.pool.query('ANALYZE');
    const steps = await Promise.all(Array.from({ length: 12 }, (_, i) => ledger.step('disjoint', `h${i % 3}`, 60_000, 4, [])));
    const chunks = steps.flatMap((s) => s.leased.map((c) => c.chunk));
    expect(chunks).toHaveLength(40);
    expect(new Set(chunks).size).toBe(40);
    expect(steps.every((s) => s.leased.length <= 4)).toBe(true);
    const { rows } = await ledger.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = 'disjoint' AND state = 'leased'");
    expect(rows[0]!.n).toBe(40);
  });

  it('a batch reports an outcome only once the step that committed it has returned: another connection already sees it', async () => {
    const sandbox = await startSandbox();
    try {
      const orders = await authorisedOrders(sandbox, 1000, '3.00');
      const seen: Promise<boolean>[] = [];
      // A query sent from onOutcome runs after the call returns: were the outcome reported before its commit, the
      // query could run while the committing statement is still open, and not see the row.
      const onOutcome = (o: OrderOutcome) => void seen.push(ledger.pool.query("SELECT 1 FROM gw_batch_outcome WHERE batch_id = 'durable' AND idx = $1", [o.index]).then((r) => r.rowCount === 1));
      const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, ledger: ledger.pool, batch: 'durable', onOutcome, concurrency: 8, keepOutcomes: false });
      expect(result.counts.succeeded).toBe(1000);
      expect(seen).toHaveLength(1000);
      expect((await Promise.all(seen)).every(Boolean)).toBe(true);
      // Intake 1, 2, 4, 8, 16 … chunks a statement and steps of several chunks: well under the 3 a chunk of one statement each.
      expect(result.roundTrips / 20).toBeLessThan(1.5);
    } finally {
      await sandbox.stop();
    }
  });

  it('a worker stopped by its signal commits what it sent and hands back the chunks it held ready unsent: none stays leased', async () => {
    const sandbox = await startSandbox();
    try {
      const orders = await authorisedOrders(sandbox, 1500, '3.00');
      const stop = new AbortController();
      const run = runBatch({ client: clientFor(sandbox), operation: 'capture', orders, ledger: ledger.pool, batch: 'stopped', signal: stop.signal, onOutcome: () => stop.abort(), concurrency: 4 });
      await expect(run).rejects.toThrow();
      const { rows } = await ledger.pool.query<{ state: string; leased_before: boolean; n: number }>("SELECT state, leased_before, count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = 'stopped' GROUP BY 1, 2 ORDER BY 1, 2");
      expect(rows.filter((r) => r.state === 'leased')).toEqual([]);
      // Handed back as they were: never leased before, so the next worker sends them without querying first.
      expect(rows.find((r) => r.state === 'ready')).toMatchObject({ leased_before: false });
      const done = rows.filter((r) => r.state === 'done').reduce((n, r) => n + r.n, 0);
      expect((await ledger.status('stopped')).counts.succeeded).toBe(done * 50);
    } finally {
      await sandbox.stop();
    }
  });

  it('refuses an unknown batch, writing nothing: the step and the intake each with a typed error', async () => {
    await expect(ledger.step('no-such-batch', 'h1', 60_000, 4, [])).rejects.toBeInstanceOf(LedgerBatchError);
    const entry = { pending: { index: 0, order: { transaction_id: 'T-none', order_no: 'N-0' }, resends: 0 }, key: 'T-none' };
    await expect(ledger.intake('no-such-batch', 'capture', [[entry]], [], 1)).rejects.toBeInstanceOf(LedgerBatchError);
    const { rows } = await ledger.pool.query<{ n: number }>("SELECT (SELECT count(*) FROM gw_order_claim WHERE batch_id = 'no-such-batch')::int + (SELECT count(*) FROM gw_batch_chunk WHERE batch_id = 'no-such-batch')::int AS n");
    expect(rows[0]!.n).toBe(0);
  });

  it('opening a ledger made by an earlier version drops its per-row foreign keys on outcomes and claims, and keeps its batches', async () => {
    const old = await freshDatabase();
    try {
      const client = new pg.Client({ connectionString: old.url });
      await client.connect();
      // The earlier schema: outcomes and claims referenced gw_batch.
      await client.query(LEDGER_SCHEMA.replace(/DO \$\$[\s\S]*END \$\$;/, '').replace('CREATE TABLE IF NOT EXISTS gw_batch_outcome (\n  batch_id text NOT NULL,', 'CREATE TABLE IF NOT EXISTS gw_batch_outcome (\n  batch_id text NOT NULL REFERENCES gw_batch (id),').replace('  order_key text NOT NULL,\n  batch_id text NOT NULL,', '  order_key text NOT NULL,\n  batch_id text NOT NULL REFERENCES gw_batch (id),'));
      await client.query("INSERT INTO gw_batch (id, operation, chunk_limit, sealed, total) VALUES ('older', 'capture', 50, true, 0)");
      const keys = "SELECT conname FROM pg_constraint WHERE contype = 'f' ORDER BY conname";
      expect((await client.query<{ conname: string }>(keys)).rows.map((r) => r.conname)).toEqual(['gw_batch_chunk_batch_id_fkey', 'gw_batch_outcome_batch_id_fkey', 'gw_order_claim_batch_id_fkey']);
      const upgraded = await PgLedger.open(old.url);
      expect((await client.query<{ conname: string }>(keys)).rows.map((r) => r.conname)).toEqual(['gw_batch_chunk_batch_id_fkey']);
      expect(await upgraded.finished('older')).toBe(true);
      await upgraded.close();
      await client.end();
    } finally {
      await old.drop();
    }
  });
});
