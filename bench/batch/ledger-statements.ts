// Every statement a PostgreSQL-ledger batch sends (intake and one worker in this process), counted: for ORDERS
// captures against the sandbox in its own process, prints each statement's count, rows and time, the round trips per
// chunk of 50, this process's CPU per chunk, the cluster's CPU by process (from /proc), and the batch's timeline: when
// intake ran, the first send, how long the window stood empty, each statement kind's latency.
// GW_PROFILE=FILE.cpuprofile profiles only the batches (not the set-up) into FILE.
//   cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source batch/ledger-statements.ts [orders] [rounds]
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { runBatch, type BatchClient } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { authoriseOrders, type AuthorisingClient } from './authorise-orders.ts';
import { postgresCpuMicros, postgresCpuSince } from './postgres-cpu.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';

// pg is a dependency of @gw/batch, not of the benches: taken from there, typed only as far as used here.
type Result = { rowCount: number | null };
type Connection = { query: (...args: unknown[]) => Promise<Result> };
type Pool = { on(event: 'connect', f: (c: Connection) => void): void; end(): Promise<void> };
const pg = createRequire(join(import.meta.dirname, '../../packages/batch/package.json'))('pg') as { Pool: new (o: object) => Pool };

const ORDERS = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const { port } = await startSandboxProcess();
const cluster = await startCluster();
// The sandbox process is stopped at exit by startSandboxProcess; the cluster here.
process.on('exit', () => cluster.stop());
const options = { baseUrl: `http://127.0.0.1:${port}`, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer };
const rawClient = createClient(options) as unknown as BatchClient;
// The timeline of a batch: each statement and each send, start and end, from the batch's start.
type Span = { kind: string; start: number; end: number };
let spans: Span[] = [];
let t0 = 0;
const capture = (rawClient as unknown as { capture: (...a: unknown[]) => Promise<unknown> }).capture;
const client = {
  ...rawClient,
  capture: async (...args: unknown[]) => {
    const span = { kind: 'send', start: performance.now() - t0, end: 0 };
    try {
      return await capture(...args);
    } finally {
      span.end = performance.now() - t0;
      spans.push(span);
    }
  },
} as BatchClient;

const setup = createClient(options) as unknown as AuthorisingClient;

const authorise = (count: number, prefix: string) => authoriseOrders(setup, count, prefix);

// Every statement on every connection of the ledger's pool, by its first words.
const stats = new Map<string, { count: number; rows: number; ms: number }>();
const pool = new pg.Pool({ connectionString: await createDatabase(cluster.url, 'statements'), max: 12 });
pool.on('connect', (connection) => {
  const query = connection.query.bind(connection);
  connection.query = (...args: unknown[]) => {
    const first = args[0] as string | { text: string; name?: string };
    const text = typeof first === 'string' ? first : first.name ?? first.text;
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
    const started = performance.now();
    const span = { kind: key.slice(0, 20), start: started - t0, end: 0 };
    const record = (result: Result | undefined): void => {
      span.end = performance.now() - t0;
      spans.push(span);
      const s = stats.get(key) ?? { count: 0, rows: 0, ms: 0 };
      s.count += 1;
      s.rows += result?.rowCount ?? 0;
      s.ms += performance.now() - started;
      stats.set(key, s);
    };
    // The pool calls it with a callback; other callers await its promise.
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, result: Result) => {
        record(result);
        (last as (e: unknown, r: Result) => void)(error, result);
      };
      return query(...args);
    }
    return query(...args).then((result) => (record(result), result));
  };
});

await runBatch({ client, operation: 'capture', orders: await authorise(2000, 'W'), concurrency: 8, keepOutcomes: false, ledger: pool as never, batch: 'warm-up' });
for (let round = 0; round < ROUNDS; round++) {
  stats.clear();
  const orders = await authorise(ORDERS, `R${round}`);
  const session = process.env.GW_PROFILE ? new Session() : null;
  session?.connect();
  await session?.post('Profiler.enable');
  await session?.post('Profiler.start');
  const cpu = process.cpuUsage();
  const pgCpu = postgresCpuMicros(new URL(cluster.url).port);
  spans = [];
  const started = performance.now();
  t0 = started;
  const result = await runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false, ledger: pool as never, batch: `round-${round}` });
  const ms = performance.now() - started;
  const own = process.cpuUsage(cpu);
  const { total: pgUsed, roles: pgRoles } = postgresCpuSince(new URL(cluster.url).port, pgCpu);
  if (session) writeFileSync(process.env.GW_PROFILE!.replace('.cpuprofile', `-${round}.cpuprofile`), JSON.stringify((await session.post('Profiler.stop')).profile));
  session?.disconnect();
  const chunks = Math.ceil(ORDERS / 50);
  if (result.counts.succeeded !== ORDERS) throw new Error(`not every capture succeeded: ${JSON.stringify(result.counts)}`);
  console.log(`round ${round}: ${ms.toFixed(0)} ms, ${(result.roundTrips / chunks).toFixed(2)} round trips per chunk (counted by the ledger), this process ${((own.user + own.system) / chunks).toFixed(0)} µs CPU per chunk`);
  console.log(`  PostgreSQL processes ${(pgUsed / chunks).toFixed(0)} µs CPU per chunk (${(pgUsed / 1000).toFixed(0)} ms in all, /proc: ${pgRoles.map(([role, us]) => `${role} ${(us / 1000).toFixed(0)} ms`).join(', ')})`);
  printTimeline(spans, ms);
  for (const [text, s] of [...stats].sort((a, b) => b[1].count - a[1].count)) console.log(`  ${String(s.count).padStart(5)} x ${String(s.rows).padStart(6)} rows ${s.ms.toFixed(0).padStart(6)} ms  ${text}`);
}
await pool.end();
process.exit(0);

/** When intake ran, the first send, how long the window stood empty, and each kind of statement's latency. */
function printTimeline(all: Span[], ms: number): void {
  const sends = all.filter((s) => s.kind === 'send').sort((a, b) => a.start - b.start);
  const intake = all.filter((s) => s.kind.startsWith('gw_ledger_intake'));
  const kinds = new Map<string, number[]>();
  for (const s of all) kinds.set(s.kind, [...(kinds.get(s.kind) ?? []), s.end - s.start]);
  // Time with no send in flight, between the first send's start and the last send's end.
  const events = sends.flatMap((s) => [[s.start, 1], [s.end, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0, emptySince = 0, empty = 0, sum = 0, last = 0;
  for (const [t, d] of events) {
    sum += inFlight * (t - last);
    last = t;
    if (inFlight === 0 && d === 1 && t > 0) empty += t - emptySince;
    inFlight += d;
    if (inFlight === 0) emptySince = t;
  }
  const f = (x: number | undefined) => (x ?? Number.NaN).toFixed(1);
  console.log(`  timeline: ${ms.toFixed(0)} ms; intake ${f(intake[0]?.start)}-${f(Math.max(...intake.map((s) => s.end)))} ms in ${intake.length} statements; first send ${f(sends[0]?.start)} ms, last answer ${f(sends.at(-1)?.end)} ms; window empty ${f(empty)} ms after the first send; mean sends in flight ${(sum / Math.max(1, last - (sends[0]?.start ?? 0))).toFixed(2)}; after the last answer ${f(ms - Math.max(...sends.map((s) => s.end)))} ms`);
  for (const [kind, list] of kinds) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`    ${kind.padEnd(22)} ${String(list.length).padStart(4)} x median ${f(sorted[sorted.length >> 1])} ms, max ${f(sorted.at(-1))} ms, sum ${f(list.reduce((a, b) => a + b, 0))} ms`);
  }
}
