import { describe, expect, it } from 'vitest';
import { PgLedger } from '../src/index.ts';
import { ledgerForFile } from './pg/database.ts';

/** A lease of a minute; no send window (these tests send nothing). */
const TERMS = { leaseMs: 60_000, sendWindowMs: 0 };

let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

describe('leasing chunks in the PostgreSQL ledger', () => {
  it('a claim leases exactly one chunk, also under concurrent claims over many analysed rows, each chunk to one holder', async () => {
    await ledger.createBatch('claims', 'query', 100);
    for (let start = 0; start < 2000; start += 100) {
      const accepted = Array.from({ length: 100 }, (_, k) => ({ pending: { index: start + k, order: { order_no: `Q-${start + k}` }, resends: 0 }, key: null }));
      // One chunk per order here: the intake is given one order at a time.
      for (const a of accepted) await ledger.intake('claims', 'query', [[a]], [], a.pending.index + 1, a.pending.index);
    }
    await ledger.seal('claims', 2000);
    await ledger.pool.query('ANALYZE');
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.claim('claims', `h${i % 4}`, TERMS)));
    expect(claims.every((c) => c !== null)).toBe(true);
    expect(new Set(claims.map((c) => c!.chunk)).size).toBe(40);
    const { rows } = await ledger.pool.query<{ holder: string; n: number }>("SELECT holder, count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = 'claims' AND state = 'leased' GROUP BY holder ORDER BY holder");
    expect(rows).toEqual([0, 1, 2, 3].map((h) => ({ holder: `h${h}`, n: 10 })));
    // A stale token's commit is refused; the holder's own is accepted, once.
    const first = claims[0]!;
    expect(await ledger.commit('claims', { ...first, fence: first.fence - 1 }, [], [])).toBe(false);
    expect(await ledger.commit('claims', first, [{ index: first.orders[0]!.index, kind: 'failed', order: first.orders[0]!.order, reason: 'test' }], [])).toBe(true);
    expect(await ledger.commit('claims', first, [], [])).toBe(false);
  });
});
