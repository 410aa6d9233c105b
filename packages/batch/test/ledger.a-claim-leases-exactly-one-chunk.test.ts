import { describe, expect, it } from 'vitest';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import { ledgerForFile } from './pg/database.ts';

/** A lease of a minute; no send window (these tests send nothing). */
const TERMS = { leaseMs: 60_000, sendWindowMs: 0 };

let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

describe('leasing chunks in the PostgreSQL ledger', () => {
  it('a step asking for one chunk leases exactly one, also under concurrent steps over many analysed rows, each chunk to one holder; a commit holds only under its token, once', async () => {
    await ledger.createBatch('claims', 'query', 100);
    for (let start = 0; start < 2000; start += 100) {
      const accepted = Array.from({ length: 100 }, (_, k) => ({ pending: { index: start + k, order: { order_no: `Q-${start + k}` }, resends: 0 }, key: null }));
      // One chunk per order here: the intake is given one order at a time.
      for (const a of accepted) await ledger.intake('claims', 'query', [[a]], [], a.pending.index + 1, a.pending.index, null);
    }
    await ledger.seal('claims', 2000, null, '');
    await ledger.pool.query('ANALYZE');
    const steps = await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.step('claims', `h${i % 4}`, TERMS, 1, [])));
    expect(steps.map((s) => s.leased.length)).toEqual(steps.map(() => 1));
    const claims = steps.map((s) => s.leased[0]!);
    expect(new Set(claims.map((c) => c.chunk)).size).toBe(40);
    const { rows } = await ledger.pool.query<{ holder: string; n: number }>(
      "SELECT holder, count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = 'claims' AND state = 'leased' GROUP BY holder ORDER BY holder",
    );
    expect(rows).toEqual([0, 1, 2, 3].map((h) => ({ holder: `h${h}`, n: 10 })));
    // A stale token's commit is refused; the holder's own is written; the same commit again (a step tried again after
    // its connection was lost) counts as held and writes nothing twice.
    const first = claims[0]!;
    const outcome = { index: first.orders[0]!.index, kind: 'failed' as const, order: first.orders[0]!.order, reason: 'test' };
    expect(
      (await ledger.step('claims', 'h0', TERMS, 0, [{ claimed: { ...first, fence: first.fence - 1 }, outcomes: [outcome], resend: [] }])).held.has(first.chunk),
    ).toBe(false);
    expect((await ledger.step('claims', 'h0', TERMS, 0, [{ claimed: first, outcomes: [outcome], resend: [] }])).held.has(first.chunk)).toBe(true);
    expect((await ledger.step('claims', 'h0', TERMS, 0, [{ claimed: first, outcomes: [outcome], resend: [] }])).held.has(first.chunk)).toBe(true);
    const results = await ledger.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM gw_batch_result WHERE batch_id = 'claims' AND chunk = $1", [
      first.chunk,
    ]);
    expect(results.rows[0]!.n).toBe(1);
  });
});
