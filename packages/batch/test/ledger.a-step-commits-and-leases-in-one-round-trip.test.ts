import pg from 'pg';
import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { LEDGER_MIGRATIONS, LedgerBatchError, runBatch, type OrderOutcome } from '../src/index.ts';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import { INTAKE, INTAKE_UNCLAIMED, intakeValues, STEP, stepValues } from '../src/postgres/statements.ts';
import type { ClaimedChunk } from '../src/store/chunk-store.ts';
import { claimKeyOf } from '../src/order-key.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { freshDatabase, ledgerForFile } from './pg/database.ts';

/** A lease of a minute; no send window (these tests send nothing). */
const TERMS = { leaseMs: 60_000, sendWindowMs: 0 };

let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

/** `count` chunks of `size` query orders taken into batch `id`, sealed. */
async function batchOf(id: string, count: number, size: number): Promise<void> {
  await ledger.createBatch(id, 'query', size);
  const chunks = Array.from({ length: count }, (_, c) =>
    Array.from({ length: size }, (_, k) => ({ pending: { index: c * size + k, order: { order_no: `${id}-${c * size + k}` }, resends: 0 }, key: null })),
  );
  await ledger.intake(id, 'query', chunks, [], count * size, 0, null);
  await ledger.seal(id, count * size, null, '');
}

const failedAll = (claimed: ClaimedChunk): OrderOutcome[] => claimed.orders.map((p) => ({ index: p.index, kind: 'failed', order: p.order, reason: 'test' }));

describe('a worker step in the PostgreSQL ledger', () => {
  it('commits several chunks and leases several in one round trip; a stale token commits nothing; the last step says the batch is over', async () => {
    await batchOf('steps', 10, 3);
    const before = ledger.roundTrips;
    const first = await ledger.step('steps', 'h1', TERMS, 4, []);
    expect(first.leased.map((c) => c.chunk)).toHaveLength(4);
    expect(first.finished).toBe(false);
    // Three commits under their tokens, one under a stale token (another worker took that chunk over), and 6 more leased.
    const [a, b, c, d] = first.leased as [ClaimedChunk, ClaimedChunk, ClaimedChunk, ClaimedChunk];
    const second = await ledger.step('steps', 'h1', TERMS, 6, [
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
    expect((await ledger.status('steps')).counts.failed).toBe(3 + 3 + 2);
    // d is still leased by h1 under its current token: committing it, the 6 and then the resend finishes the batch.
    const third = await ledger.step(
      'steps',
      'h1',
      TERMS,
      8,
      [d, ...second.leased].map((claimed) => ({ claimed, outcomes: failedAll(claimed), resend: [] })),
    );
    expect(third.held.size).toBe(7);
    expect(third.leased.map((l) => l.orders.map((p) => p.index))).toEqual([[c.orders[0]!.index]]);
    expect(third.finished).toBe(false);
    const last = await ledger.step(
      'steps',
      'h1',
      TERMS,
      8,
      third.leased.map((claimed) => ({ claimed, outcomes: failedAll(claimed), resend: [] })),
    );
    expect(last.leased).toEqual([]);
    expect(last.finished).toBe(true);
    expect((await ledger.status('steps')).counts.failed).toBe(30);
    // Outcomes in input order, the resent order's among them, also read one chunk row a page.
    for (const pageSize of [5000, 7]) {
      const read: OrderOutcome[] = [];
      for await (const outcome of ledger.outcomes('steps', pageSize)) read.push(outcome);
      // Each as committed, its order put back from its chunk's orders, its fields in the order the runner makes them.
      expect(read).toEqual(Array.from({ length: 30 }, (_, i) => ({ index: i, kind: 'failed', order: { order_no: `steps-${i}` }, reason: 'test' })));
      expect(read.every((o) => Object.keys(o).join() === 'index,kind,order,reason')).toBe(true);
    }
  });

  it('a step tried again with its token (its first try committed, its answer lost) answers the leases that try took, as it handed them out, and leases no more', async () => {
    await batchOf('again', 6, 3);
    // h0 leases the first chunk for 1 ms with a send window of 5 s: a chunk h1 then takes over, to wait out h0's sends.
    await ledger.step('again', 'h0', { leaseMs: 1, sendWindowMs: 5_000 }, 1, []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const values = stepValues({ batch: 'again', holder: 'h1', leaseMs: 60_000, want: 3, commits: [], sendWindowMs: 0, token: 'step-1' });
    const leasedTo = async (holder: string) =>
      (
        await ledger.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = 'again' AND holder = $1 AND state = 'leased'", [
          holder,
        ])
      ).rows[0]!.n;
    type Row = { chunk: string; fence: string; body: string; taken_over: boolean; quiet_wait_ms: number };
    const first = (await ledger.pool.query<Row>(STEP, values)).rows;
    const again = (await ledger.pool.query<Row>(STEP, values)).rows;
    const leases = (rows: Row[]) => rows.map((r) => ({ chunk: r.chunk, fence: r.fence, body: r.body, takenOver: r.taken_over }));
    expect(first).toHaveLength(3);
    expect(first[0]!.taken_over).toBe(true);
    expect(leases(again)).toEqual(leases(first));
    // The earlier holder's quiet time as the first try found it, not as its own lease moved it.
    expect(again[0]!.quiet_wait_ms).toBeGreaterThan(4_000);
    expect(again[0]!.quiet_wait_ms).toBeLessThanOrEqual(first[0]!.quiet_wait_ms);
    expect(await leasedTo('h1')).toBe(3);
    // Another step (another token) leases anew.
    const next = (
      await ledger.pool.query<Row>(STEP, stepValues({ batch: 'again', holder: 'h1', leaseMs: 60_000, want: 2, commits: [], sendWindowMs: 0, token: 'step-2' }))
    ).rows;
    expect(next.map((r) => r.chunk).filter((c) => first.some((f) => f.chunk === c))).toEqual([]);
    expect(await leasedTo('h1')).toBe(5);
  });

  it('INTAKE_UNCLAIMED writes what INTAKE writes while no order is claimed, and fails whole (nothing written) on one that is', async () => {
    const params = (id: string, prefix: string) => ({
      batch: id,
      operation: 'capture',
      chunks: [0, 1, 2].map((c) => {
        const entries = [0, 1, 2].map((k) => ({ index: c * 3 + k, order: { transaction_id: `${prefix}-${c * 3 + k}`, amount: '1.00' } }));
        return { entries, claims: entries.map((e) => ({ key: `${prefix}-${e.index}`, index: e.index })) };
      }),
      refused: [{ index: 9, kind: 'rejected' as const, order: { transaction_id: `${prefix}-9` }, problems: [], reason: 'refused at intake' }],
      next: 10,
      after: 0,
      read: { from: 0, upto: 10, digest: 'digest' },
    });
    const written = async (id: string, prefix: string) => {
      const rows = async (sql: string) =>
        JSON.parse(
          JSON.stringify((await ledger.pool.query(sql, [id])).rows)
            .replaceAll(prefix, 'P')
            .replaceAll(id, 'B'),
        ) as unknown;
      return {
        batch: await rows('SELECT intake_next FROM gw_batch WHERE id = $1'),
        chunks: await rows('SELECT body, skip, state FROM gw_batch_chunk WHERE batch_id = $1 ORDER BY chunk'),
        claims: await rows('SELECT order_key, idx FROM gw_order_claim WHERE batch_id = $1 ORDER BY idx'),
        outcomes: await rows('SELECT idx, kind, outcome FROM gw_batch_outcome WHERE batch_id = $1 ORDER BY idx'),
        input: await rows('SELECT from_idx, upto, digest FROM gw_batch_input WHERE batch_id = $1'),
      };
    };
    for (const id of ['with-intake', 'with-unclaimed', 'unclaimed-refused']) await ledger.createBatch(id, 'capture', 3);
    const answer = async (statement: string, id: string, prefix: string) =>
      (await ledger.pool.query(statement, intakeValues(params(id, prefix)))).rows[0] as Record<string, unknown>;
    const byIntake = await answer(INTAKE, 'with-intake', 'tx-a');
    const byUnclaimed = await answer(INTAKE_UNCLAIMED, 'with-unclaimed', 'tx-b');
    expect(byUnclaimed).toEqual(byIntake);
    expect(byIntake).toMatchObject({ moved: 1, chunks: 3, rejected: 1 });
    expect(await written('with-unclaimed', 'tx-b')).toEqual(await written('with-intake', 'tx-a'));
    // Tried again (its answer lost): the mark has moved on, nothing is written twice.
    expect(await answer(INTAKE_UNCLAIMED, 'with-unclaimed', 'tx-b')).toMatchObject({ moved: 0, chunks: 0, rejected: 0 });
    expect(await written('with-unclaimed', 'tx-b')).toEqual(await written('with-intake', 'tx-a'));
    // Orders 'tx-b' claimed already: the plain insert fails whole, and the batch holds nothing of it.
    await expect(answer(INTAKE_UNCLAIMED, 'unclaimed-refused', 'tx-b')).rejects.toMatchObject({ code: '23505', constraint: 'gw_order_claim_pkey' });
    expect(await written('unclaimed-refused', 'tx-b')).toEqual({ batch: [{ intake_next: '0' }], chunks: [], claims: [], outcomes: [], input: [] });
  });

  it('concurrent steps of several holders lease disjoint chunks, exactly as many as each asked for while chunks last', async () => {
    await batchOf('disjoint', 40, 2);
    await ledger.pool.query('ANALYZE');
    const steps = await Promise.all(Array.from({ length: 12 }, (_, i) => ledger.step('disjoint', `h${i % 3}`, TERMS, 4, [])));
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
      const onOutcome = (o: OrderOutcome) =>
        void seen.push(
          ledger.pool
            .query(`SELECT 1 FROM gw_batch_result WHERE batch_id = 'durable' AND outcomes LIKE '%{"index":' || $1 || ',%'`, [o.index])
            .then((r) => r.rowCount === 1),
        );
      const result = await runBatch({
        client: clientFor(sandbox),
        operation: 'capture',
        orders,
        ledger: ledger.pool,
        batch: 'durable',
        onOutcome,
        concurrency: 8,
        keepOutcomes: false,
      });
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
      const run = runBatch({
        client: clientFor(sandbox),
        operation: 'capture',
        orders,
        ledger: ledger.pool,
        batch: 'stopped',
        signal: stop.signal,
        onOutcome: () => stop.abort(),
        concurrency: 4,
      });
      await expect(run).rejects.toThrow();
      const { rows } = await ledger.pool.query<{ state: string; leased_before: boolean; n: number }>(
        "SELECT state, leased_before, count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = 'stopped' GROUP BY 1, 2 ORDER BY 1, 2",
      );
      expect(rows.filter((r) => r.state === 'leased')).toEqual([]);
      // Handed back as they were: never leased before, so the next worker sends them without querying first.
      expect(rows.find((r) => r.state === 'ready')).toMatchObject({ leased_before: false });
      const done = rows.filter((r) => r.state === 'done').reduce((n, r) => n + r.n, 0);
      expect((await ledger.status('stopped')).counts.succeeded).toBe(done * 50);
    } finally {
      await sandbox.stop();
    }
  });

  it('an intake whose chunks hold orders another batch claimed: those are left out of their chunk and rejected naming it, a chunk left empty is not written', async () => {
    const entry = (i: number) => ({ pending: { index: i, order: { transaction_id: `T-shared-${i}`, order_no: `N-${i}` }, resends: 0 }, key: `T-shared-${i}` });
    await ledger.createBatch('first', 'capture', 50);
    await ledger.intake('first', 'capture', [Array.from({ length: 10 }, (_, i) => entry(i))], [], 10, 0, null);
    await ledger.createBatch('second', 'capture', 50);
    // Chunk 1: orders 5-14 (5-9 claimed by 'first'); chunk 2: orders 0-4 (all claimed).
    const added = await ledger.intake(
      'second',
      'capture',
      [Array.from({ length: 10 }, (_, i) => entry(i + 5)), Array.from({ length: 5 }, (_, i) => entry(i))],
      [],
      15,
      0,
      null,
    );
    expect(added).toBe(1);
    await ledger.seal('second', 15, null, '');
    const step = await ledger.step('second', 'h1', TERMS, 4, []);
    expect(step.leased.map((c) => c.orders.map((p) => p.index))).toEqual([[10, 11, 12, 13, 14]]);
    const rejected: OrderOutcome[] = [];
    for await (const o of ledger.outcomes('second')) rejected.push(o);
    expect(rejected.map((o) => [o.index, o.kind])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => [i, 'rejected']));
    expect(rejected[7]!.reason).toContain('already in batch first (input order #7)');
    expect(rejected[7]!.order).toEqual(entry(7).pending.order);
  });

  it('claims refunds by transaction, amount and reason (a key with NUL separators): a second partial refund is its own movement, the same one again is refused', async () => {
    const refund = (i: number, amount: string) => ({
      pending: { index: i, order: { transaction_id: 'T-refunded', refund_amount: amount, refund_reason: 'damaged' }, resends: 0 },
      key: claimKeyOf('refund', { transaction_id: 'T-refunded', refund_amount: amount, refund_reason: 'damaged' }),
    });
    await ledger.createBatch('refunds-a', 'refund', 50);
    expect(await ledger.intake('refunds-a', 'refund', [[refund(0, '1.00'), refund(1, '2.00')]], [], 2, 0, null)).toBe(1);
    await ledger.createBatch('refunds-b', 'refund', 50);
    expect(await ledger.intake('refunds-b', 'refund', [[refund(0, '2.00'), refund(1, '3.00')]], [], 2, 0, null)).toBe(1);
    const again: OrderOutcome[] = [];
    for await (const o of ledger.outcomes('refunds-b')) again.push(o);
    expect(again.map((o) => [o.index, o.kind])).toEqual([[0, 'rejected']]);
    expect(again[0]!.reason).toContain('already in batch refunds-a (input order #1)');
  });

  it("keeps a chunk's orders and outcomes compressed (less to write and log), and what was written is what comes back", async () => {
    await ledger.createBatch('compressed', 'capture', 50);
    const order = (i: number) => ({
      merchant_id: 'M1',
      account_id: 'A1',
      transaction_id: `T-compressed-${i}`,
      order_no: `N-compressed-${i}`,
      amount: '10.00',
      currency: 'EUR',
    });
    const chunk = Array.from({ length: 50 }, (_, i) => ({ pending: { index: i, order: order(i), resends: 0 }, key: `T-compressed-${i}` }));
    expect(await ledger.intake('compressed', 'capture', [chunk], [], 50, 0, null)).toBe(1);
    await ledger.seal('compressed', 50, null, '');
    const first = await ledger.step('compressed', 'h1', TERMS, 1, []);
    const outcomes = first.leased[0]!.orders.map((p): OrderOutcome => ({
      index: p.index,
      kind: 'succeeded',
      order: p.order,
      result: { transaction_id: p.order.transaction_id as string, order_no: p.order.order_no as string, result_code: '0000', status: 'captured' },
    }));
    expect((await ledger.step('compressed', 'h1', TERMS, 0, [{ claimed: first.leased[0]!, outcomes, resend: [] }])).finished).toBe(true);
    // pg_column_size is the size as stored, octet_length the text's.
    const { rows } = await ledger.pool.query<{ stored: number; text: number; method: string | null; result_stored: number; result_text: number }>(
      "SELECT pg_column_size(c.body) AS stored, octet_length(c.body) AS text, pg_column_compression(c.body) AS method, pg_column_size(r.outcomes) AS result_stored, octet_length(r.outcomes) AS result_text FROM gw_batch_chunk c JOIN gw_batch_result r USING (batch_id, chunk) WHERE c.batch_id = 'compressed'",
    );
    const row = rows[0]!;
    expect(row.method).not.toBeNull();
    expect(row.stored).toBeLessThan(row.text / 2);
    expect(row.result_stored).toBeLessThan(row.result_text / 2);
    const read: OrderOutcome[] = [];
    for await (const o of ledger.outcomes('compressed')) read.push(o);
    expect(read).toEqual(outcomes);
  });

  it('refuses an unknown batch, writing nothing: the step and the intake each with a typed error', async () => {
    await expect(ledger.step('no-such-batch', 'h1', TERMS, 4, [])).rejects.toBeInstanceOf(LedgerBatchError);
    const entry = { pending: { index: 0, order: { transaction_id: 'T-none', order_no: 'N-0' }, resends: 0 }, key: 'T-none' };
    await expect(ledger.intake('no-such-batch', 'capture', [[entry]], [], 1, 0, null)).rejects.toBeInstanceOf(LedgerBatchError);
    const { rows } = await ledger.pool.query<{ n: number }>(
      "SELECT (SELECT count(*) FROM gw_order_claim WHERE batch_id = 'no-such-batch')::int + (SELECT count(*) FROM gw_batch_chunk WHERE batch_id = 'no-such-batch')::int AS n",
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('the schema is numbered migrations, recorded once: opening again (and from several processes at once) runs none of them twice', async () => {
    const db = await freshDatabase();
    try {
      const opened = await Promise.all(Array.from({ length: 4 }, () => PgLedger.open(db.url, { maxConnections: 1 })));
      const { rows } = await opened[0]!.pool.query<{ version: number; name: string }>('SELECT version, name FROM gw_ledger_migration ORDER BY version');
      expect(rows).toEqual(LEDGER_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      await Promise.all(opened.map((l) => l.close()));
      const again = await PgLedger.open(db.url);
      expect((await again.pool.query('SELECT count(*)::int AS n FROM gw_ledger_migration')).rows[0]).toEqual({ n: LEDGER_MIGRATIONS.length });
      await again.close();
    } finally {
      await db.drop();
    }
  });

  it('a database with ledger tables of a version from before the migrations is refused, not upgraded', async () => {
    const db = await freshDatabase();
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('CREATE TABLE gw_batch (id text PRIMARY KEY)');
      await client.end();
      await expect(PgLedger.open(db.url)).rejects.toMatchObject({ name: 'UnmigratedLedgerError', code: 'GW_CONFIG' });
    } finally {
      await db.drop();
    }
  });
});
