// Two workers commit the batch's last two chunks at the same time: each step's snapshot still sees the other's chunk
// open, so neither step finds the batch over. Idle workers (polling once a minute) must still be woken: every commit
// made once the batch is sealed and no chunk is left ready notifies, so the last notification comes after both commits.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { until } from '@gw/test-support';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import type { ClaimedChunk } from '../src/store/chunk-store.ts';
import type { OrderOutcome } from '../src/index.ts';
import { ledgerForFile } from './pg/database.ts';

const TERMS = { leaseMs: 60_000, sendWindowMs: 0 };
let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

const failedAll = (claimed: ClaimedChunk): OrderOutcome[] => claimed.orders.map((p) => ({ index: p.index, kind: 'failed', order: p.order, reason: 'test' }));
const commitOf = (claimed: ClaimedChunk) => [{ claimed, outcomes: failedAll(claimed), resend: [] }];

describe('the last chunks of a batch committed together', () => {
  it('still notify the batch over: an idle worker woken by the last notification finds it finished', async () => {
    const id = 'together';
    await ledger.createBatch(id, 'query', 2);
    const chunks = [0, 1].map((c) => [0, 1].map((k) => ({ pending: { index: c * 2 + k, order: { order_no: `${id}-${c * 2 + k}` }, resends: 0 }, key: null })));
    await ledger.intake(id, 'query', chunks, [], 4, 0, null);
    await ledger.seal(id, 4, null, '');
    const [a] = (await ledger.step(id, 'h1', TERMS, 1, [])).leased as [ClaimedChunk];
    const [b] = (await ledger.step(id, 'h2', TERMS, 1, [])).leased as [ClaimedChunk];

    const notified: number[] = [];
    const stopListening = await ledger.listen(id, () => notified.push(performance.now()));
    // Two connections open besides the listener's, so that neither step below waits for one.
    await Promise.all([ledger.status(id), ledger.status(id)]);
    const blocker = new pg.Client({ connectionString: ledgerUrlOf(ledger) });
    await blocker.connect();
    try {
      // The first commit's statement starts (its snapshot taken), then waits on a row lock while the second commits.
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM gw_batch_chunk WHERE batch_id = $1 AND chunk = $2 FOR UPDATE', [id, a.chunk]);
      const first = ledger.step(id, 'h1', TERMS, 0, commitOf(a));
      await waitForALockWait(blocker);
      const second = await ledger.step(id, 'h2', TERMS, 0, commitOf(b));
      // The second commit, made with no chunk left ready, notified.
      await until(() => notified.length > 0, 5_000, 'the second commit notified');
      const before = notified.length;
      await blocker.query('COMMIT');
      const firstDone = await first;
      // Neither step saw the batch over: each statement's snapshot had the other's chunk open.
      expect([firstDone.finished, second.finished]).toEqual([false, false]);
      expect([...firstDone.held, ...second.held].sort()).toEqual([a.chunk, b.chunk].sort());
      // So did the first, after both commits: woken by it, an idle worker's step finds the batch over.
      await until(() => notified.length > before, 5_000, 'the first commit notified');
      expect((await ledger.step(id, 'h3', TERMS, 2, [])).finished).toBe(true);
    } finally {
      await blocker.end();
      await stopListening();
    }
  });
});

/** The connection string of the ledger's pool. */
function ledgerUrlOf(opened: PgLedger): string {
  return (opened.pool.options as pg.PoolConfig).connectionString!;
}

/** Resolves once another session waits on a lock (the first step, blocked by `blocker`'s row lock). */
async function waitForALockWait(blocker: pg.Client): Promise<void> {
  await until(
    async () => {
      const { rows } = await blocker.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
      );
      return rows[0]!.n > 0;
    },
    5_000,
    'a step waiting on the row lock',
  );
}
