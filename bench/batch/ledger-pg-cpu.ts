// PostgreSQL's own CPU per ledger statement kind, with no sandbox and no sending: ORDERS capture orders taken in (as a
// batch's intake does, up to 16 chunks a statement), then every chunk leased and committed by steps of 8 (outcomes
// shaped like a sandbox's), the backend's CPU read from /proc before and after each phase, each phase's wall time, and
// the WAL bytes and buffers it took per chunk (counts the machine's load does not move).
//   cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source batch/ledger-pg-cpu.ts [orders=10000] [rounds=3]
// FOREIGN_KEYS=1 adds the foreign keys the schema leaves out (claims and intake outcomes to their batch): the difference is what they cost.
// PLAN_CACHE_MODE=force_generic_plan|force_custom_plan sets the connection's plan_cache_mode. EXPLAIN=1 prints every statement's plan as run (auto_explain). NOKEYS=1 takes the orders in without claim keys: the difference is what the claims across batches cost.
import type { OrderOutcome } from '@gw/batch';
// The ledger's store itself (internal to @gw/batch): what this bench measures is its statements.
import { PgLedger, type ChunkCommit } from '../../packages/batch/src/postgres/pg-ledger.ts';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { preciseCpuMicros } from './postgres-cpu.ts';

const ORDERS = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const cluster = await startCluster();
process.on('exit', () => cluster.stop());
const ledger = await PgLedger.open(await createDatabase(cluster.url, 'cpu'), { maxConnections: 1 });
if (process.env.EXPLAIN) {
  // Every statement's plan with its actual rows and times, printed as PostgreSQL sends it (auto_explain at level LOG).
  const connection = await ledger.pool.connect();
  for (const set of ["LOAD 'auto_explain'", 'SET auto_explain.log_min_duration = 0', 'SET auto_explain.log_analyze = on', 'SET auto_explain.log_buffers = on', 'SET client_min_messages = log']) await connection.query(set);
  connection.on('notice', (notice: { message?: string }) => console.log(notice.message));
  connection.release();
}
if (process.env.FOREIGN_KEYS) {
  await ledger.pool.query('ALTER TABLE gw_order_claim ADD FOREIGN KEY (batch_id) REFERENCES gw_batch (id)');
  await ledger.pool.query('ALTER TABLE gw_batch_outcome ADD FOREIGN KEY (batch_id) REFERENCES gw_batch (id)');
  await ledger.pool.query('ALTER TABLE gw_batch_result ADD FOREIGN KEY (batch_id) REFERENCES gw_batch (id)');
}
if (process.env.PLAN_CACHE_MODE) await ledger.pool.query(`SET plan_cache_mode = ${process.env.PLAN_CACHE_MODE}`);
const pid = (await ledger.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
const backendCpu = (): number => preciseCpuMicros(pid);

const order = (r: number, i: number) => ({ merchant_id: 'M1', account_id: 'A1', transaction_id: `T-${r}-${String(i).padStart(8, '0')}`, order_no: `N-${r}-${i}`, amount: '10.00', currency: 'EUR' });
/**
 * The database's work so far, which load on the machine does not change (CPU time does, 1.6x here between runs of the
 * same code): WAL bytes written, and the buffers read and hit (pg_stat_database, flushed by this backend first).
 */
async function work(): Promise<{ wal: number; buffers: number }> {
  await ledger.pool.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await ledger.pool.query<{ wal: string; buffers: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), \'0/0\')::bigint AS wal, (SELECT blks_hit + blks_read FROM pg_stat_database WHERE datname = current_database()) AS buffers');
  return { wal: Number(rows[0]!.wal), buffers: Number(rows[0]!.buffers) };
}
async function phase(name: string, round: number, run: () => Promise<void>): Promise<void> {
  const chunks = ORDERS / 50;
  const before = await work();
  const cpu = backendCpu();
  const started = performance.now();
  await run();
  const used = backendCpu() - cpu;
  const after = await work();
  console.log(`round ${round} ${name.padEnd(7)} wall ${(performance.now() - started).toFixed(0).padStart(5)} ms, PostgreSQL backend ${(used / 1000).toFixed(0).padStart(4)} ms CPU (${(used / chunks).toFixed(0)} µs, ${((after.wal - before.wal) / chunks).toFixed(0)} WAL bytes, ${((after.buffers - before.buffers) / chunks).toFixed(1)} buffers per chunk of 50)`);
}
for (let round = 0; round < ROUNDS; round++) {
  const batch = `cpu-${round}`;
  await ledger.createBatch(batch, 'capture', 50);
  await phase('intake', round, async () => {
    for (let i = 0, per = 1, mark = 0; i < ORDERS; per = Math.min(per * 2, 16)) {
      const chunks = [];
      for (let c = 0; c < per && i < ORDERS; c++, i += 50) chunks.push(Array.from({ length: Math.min(50, ORDERS - i) }, (_, k) => ({ pending: { index: i + k, order: order(round, i + k), resends: 0 }, key: process.env.NOKEYS ? null : `T-${round}-${String(i + k).padStart(8, '0')}` })));
      await ledger.intake(batch, 'capture', chunks, [], i, mark);
      mark = i;
    }
    await ledger.seal(batch, ORDERS);
  });
  await phase('steps', round, async () => {
    let commits: ChunkCommit[] = [];
    for (;;) {
      const step = await ledger.step(batch, 'h', { leaseMs: 60_000, sendWindowMs: 0 }, 8, commits);
      commits = step.leased.map((claimed) => ({ claimed, resend: [], outcomes: claimed.orders.map((p): OrderOutcome => ({ index: p.index, kind: 'succeeded', order: p.order, result: { transaction_id: p.order.transaction_id as string, order_no: p.order.order_no as string, result_code: '0000', amount: '10.00', currency: 'EUR', status: 'captured' } })) }));
      if (step.finished) break;
    }
  });
}
// Whether the connection re-plans each named statement on every execution (custom plans) or reuses a generic one.
for (const row of (await ledger.pool.query<{ name: string; generic_plans: string; custom_plans: string }>('SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name')).rows) console.log(`  ${row.name}: ${row.generic_plans} generic, ${row.custom_plans} custom plans`);
await ledger.close();
process.exit(0);
