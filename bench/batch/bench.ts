// 10,000 captures through runBatch (no journal, the file journal, the PostgreSQL ledger with one worker) vs an ideal
// hand loop (pre-built, pre-signed chunks of 50 sent with undici at the same concurrency) against the same sandbox in
// its own process, in one run; then peak RSS while 100,000 orders that succeed are streamed from a file through runBatch.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { createClient } from '@gw/client';
import { runBatch, type BatchClient } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { median, writeResultsSection } from '../results.ts';
// The batch package's throwaway PostgreSQL cluster (initdb + pg_ctl as postgres, a free port, removed at the end).
import { createDatabase, startCluster, startPgBouncer } from '@gw/test-postgres';
import { postgresCpuMicros, postgresCpuSince, processCpuMicros } from '../cpu.ts';
import { setCaptureLatency, startSandboxProcess } from '../sandbox/sandbox-process.ts';
import { fleetSection } from './fleet.ts';
import { quotaSection } from './quota.ts';
import { authoriseOrders, type AuthorisingClient, type CaptureOrder } from '@gw/test-support';

const ORDERS = Number(process.env.GW_BENCH_BATCH_ORDERS ?? 10_000);
// The headline: a gateway 20 and 100 ms away (the sandbox's capture latency), where what users feel is the runner's
// overhead over the wire's; the 0 ms rows are CPU per order (the sandbox shares the two cores there).
const LATENCIES = (process.env.GW_BENCH_BATCH_LATENCIES ?? '20,100').split(',').filter(Boolean).map(Number);
const LATENCY_ROUNDS = Number(process.env.GW_BENCH_BATCH_LATENCY_ROUNDS ?? 5);
const STREAMED = Number(process.env.GW_BENCH_STREAMED_ORDERS ?? 100_000);
const CONCURRENCY = 8;
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const merchant = { merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId, account_id: SANDBOX_DEFAULT_MERCHANT.accountId };

const { child, url } = await startSandboxProcess();
const cluster = await startCluster();
const ledgerUrl = await createDatabase(cluster.url, 'bench');
// The same ledger through PgBouncer in transaction mode, as production often reaches it: a pool as large as a worker's
// own (concurrency + 4), so the pooler, not its size, is what the latency rows compare.
const bouncer = await startPgBouncer(cluster, { poolMode: 'transaction', poolSize: CONCURRENCY + 4 });
const pooledLedgerUrl = bouncer.urlFor(ledgerUrl);
// The sandbox process is stopped at exit by startSandboxProcess; the cluster and the pooler here.
process.on('exit', () => {
  bouncer.stop();
  cluster.stop();
});
const roundTripsPerChunk: number[] = [];
// PostgreSQL's own CPU per request during each measured ledger run (its processes, from /proc), and how long intake took.
const postgresCpuPerRequest: number[] = [];
const clusterPort = new URL(cluster.url).port;
const clientOptions = { baseUrl: url, merchantId: merchant.merchant_id, accountId: merchant.account_id, signer, verifier: signer };
// The runner's client sends only the batches (its connections are the window's, as the hand loop's Agent has
// CONCURRENCY); the orders to capture are authorised through another one, 64 at a time.
const client = createClient(clientOptions) as unknown as BatchClient;
const setup = createClient(clientOptions) as unknown as AuthorisingClient;

const authorise = (count: number, prefix: string) => authoriseOrders(setup, count, { prefix });

async function handLoop(orders: CaptureOrder[]): Promise<Measurement> {
  const bodies: string[] = [];
  for (let i = 0; i < orders.length; i += 50) {
    const record = { ...merchant, capture_orders: orders.slice(i, i + 50) };
    const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: '' }));
    bodies.push(encodeRequestBody('capture', { ...record, encryption_data }));
  }
  const dispatcher = new Agent({ connections: CONCURRENCY });
  let next = 0;
  // Only the sending is measured: the bodies were built and signed beforehand, as an ideal loop would have them.
  const measurement = await measure(async () => {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const res = await request(`${url}/v1/capture`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
          await res.body.text();
        }
      }),
    );
  });
  await dispatcher.close();
  return measurement;
}

/** CPU time of the sandbox process so far, in µs (utime + stime from /proc; Linux only, else NaN). */
function sandboxCpuMicros(): number {
  return processCpuMicros(child.pid);
}

interface Measurement {
  readonly ms: number;
  /** CPU of this process and of the sandbox's while `run` ran, in µs. */
  readonly ownCpu: number;
  readonly sandboxCpu: number;
}

/** Wall time of `run` and the CPU both processes spent meanwhile. */
async function measure(run: () => Promise<void>): Promise<Measurement> {
  const cpu = process.cpuUsage();
  const sandboxCpu = sandboxCpuMicros();
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  const own = process.cpuUsage(cpu);
  return { ms, ownCpu: own.user + own.system, sandboxCpu: sandboxCpuMicros() - sandboxCpu };
}

const dir = mkdtempSync(join(tmpdir(), 'gw-bench-batch-'));
const rows: string[] = [];
const ROUNDS = Number(process.env.GW_BENCH_BATCH_ROUNDS ?? 15);
const CHUNKS = Math.ceil(ORDERS / 50);
type Side = 'hand' | 'batch' | 'batchJournal' | 'batchLedger' | 'batchPooled' | 'batchPooledPolling';
type Orders = Awaited<ReturnType<typeof authorise>>;
/** runBatch's settings every side shares: these captures, the bench's concurrency, no outcomes kept in memory. */
const capturing = (orders: Orders) => ({ client, operation: 'capture' as const, orders, concurrency: CONCURRENCY, keepOutcomes: false });
/** Throws unless every capture succeeded: a run with failures would time something else. */
function expectAllCaptured(result: { readonly counts: { readonly succeeded: number } }, orders: Orders): void {
  if (result.counts.succeeded !== orders.length) throw new Error(`not every capture succeeded: ${JSON.stringify(result.counts)}`);
}
// `round` is the measured round (negative: a warm-up or a latency row, whose ledger figures are not kept); `tag` names its files.
const sides: Record<Side, (orders: Orders, round: number, tag?: string) => Promise<Measurement>> = {
  hand: (orders) => handLoop(orders),
  batch: (orders) => measure(async () => expectAllCaptured(await runBatch(capturing(orders)), orders)),
  batchJournal: (orders, round, tag = String(round)) =>
    measure(async () => expectAllCaptured(await runBatch({ ...capturing(orders), journal: join(dir, `j${tag}.jsonl`) }), orders)),
  batchLedger: async (orders, round) => {
    const before = postgresCpuMicros(clusterPort);
    const m = await measure(async () => {
      const result = await runBatch({ ...capturing(orders), ledger: ledgerUrl, batch: `bench-${round}-${Date.now()}` });
      expectAllCaptured(result, orders);
      if (round >= 0) roundTripsPerChunk.push(result.roundTrips / CHUNKS);
    });
    if (round >= 0) postgresCpuPerRequest.push(postgresCpuSince(clusterPort, before).total / CHUNKS);
    return m;
  },
  // Through PgBouncer (transaction mode): woken on a direct listen connection, as the README advises, or polling.
  batchPooled: (orders, round) =>
    measure(async () =>
      expectAllCaptured(
        await runBatch({ ...capturing(orders), ledger: pooledLedgerUrl, ledgerListen: ledgerUrl, batch: `bench-pooled-${round}-${Date.now()}` }),
        orders,
      ),
    ),
  batchPooledPolling: (orders, round) =>
    measure(async () =>
      expectAllCaptured(
        await runBatch({ ...capturing(orders), ledger: pooledLedgerUrl, onNotice: () => {}, batch: `bench-polling-${round}-${Date.now()}` }),
        orders,
      ),
    ),
};
const order: Side[] = ['hand', 'batch', 'batchJournal', 'batchLedger'];
const measured: Record<Side, { ms: number[]; ownCpu: number[]; sandboxCpu: number[] }> = {
  hand: { ms: [], ownCpu: [], sandboxCpu: [] },
  batch: { ms: [], ownCpu: [], sandboxCpu: [] },
  batchJournal: { ms: [], ownCpu: [], sandboxCpu: [] },
  batchLedger: { ms: [], ownCpu: [], sandboxCpu: [] },
  batchPooled: { ms: [], ownCpu: [], sandboxCpu: [] },
  batchPooledPolling: { ms: [], ownCpu: [], sandboxCpu: [] },
};
// A warm-up of every side first (2,000 orders each, not measured), as the client bench does: the JIT, not the
// runner, would otherwise decide the first round.
for (const side of order) await sides[side](await authorise(2_000, `W-${side}`), -1);
// Then ROUNDS rounds, the sides in a different order each round (the machine is shared and noisy: a slow moment
// should not always fall on the same side), each on its own freshly authorised orders; medians are compared.
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < order.length; k++) {
    const side = order[(round + k) % order.length]!;
    const m = await sides[side](await authorise(ORDERS, `R${round}-${side}`), round);
    measured[side].ms.push(m.ms);
    measured[side].ownCpu.push(m.ownCpu / CHUNKS);
    measured[side].sandboxCpu.push(m.sandboxCpu / CHUNKS);
  }
}
// Each round's ratio pairs a side with the hand loop run next to it in time: a slow stretch of the (shared, noisy)
// machine then weighs on both sides of a ratio rather than on one side's median.
const pairedRatio = (side: Side) => median(measured[side].ms.map((ms, round) => ms / measured.hand.ms[round]!));
const row = (label: string, side: Side) => {
  const m = measured[side];
  const ratio = side === 'hand' ? '1.00x' : `**${pairedRatio(side).toFixed(2)}x**`;
  return `| ${label} | ${median(m.ms).toFixed(0)} | ${m.ms.map((x) => x.toFixed(0)).join(', ')} | ${Math.round((ORDERS * 1000) / median(m.ms))} | ${ratio} | ${median(m.ownCpu).toFixed(0)} | ${median(m.sandboxCpu).toFixed(0)} |`;
};
rows.push(
  `${ORDERS.toLocaleString('en')} captures, chunks of 50, concurrency ${CONCURRENCY}, sandbox in its own process; ${ROUNDS} rounds after a warm-up of every side, the sides' order rotated each round; the ratio is the median of each round's time over that round's hand loop; node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| runner | median ms | each round, ms | orders/s | ratio to hand loop (median of rounds) | bench process CPU per request, µs | sandbox CPU per request, µs |',
  '|---|---:|---|---:|---:|---:|---:|',
  row('hand loop: pre-signed bodies, undici', 'hand'),
  row('runBatch, no journal', 'batch'),
  row('runBatch, journal (one O_DSYNC write per group of chunks)', 'batchJournal'),
  row('runBatch, PostgreSQL ledger, one worker', 'batchLedger'),
  '',
  `With no latency, runBatch as called by default (no journal) took **${pairedRatio('batch').toFixed(2)}x** the hand loop's time. The runner validates every order, signs every request, verifies and matches every answer; the hand loop sends pre-built, pre-signed bytes. Both processes share the machine's cores, so CPU per request (a steadier figure than time here) says which side bounds a run: the sandbox for the hand loop, the runner once its CPU exceeds the sandbox's.`,
  '',
  `With a journal the runner also serialises each chunk's intent and outcomes (about 16 KB per request of 50) and writes them to a file opened with O_DSYNC (one call per group of entries, durable when it returns): ${(median(measured.batchJournal.ownCpu) - median(measured.batch.ownCpu)).toFixed(0)} µs of CPU per request more here, and **${pairedRatio('batchJournal').toFixed(2)}x** the hand loop's time. The hand loop writes nothing to disk.`,
  '',
  `The PostgreSQL ledger with one worker (intake and work in the bench process, PostgreSQL 15 on the same machine; this throwaway cluster runs with fsync off, as every test cluster here does: a durable server would add its commit flushes): **${pairedRatio('batchLedger').toFixed(2)}x**; ${median(roundTripsPerChunk).toFixed(2)} database round trips per chunk of 50 (median of rounds; intake takes up to 16 chunks a statement, a worker's step commits every chunk settled since the last and leases for its free slots plus as many held ready). PostgreSQL's own CPU, not in the columns above: ${median(postgresCpuPerRequest).toFixed(0)} µs per request of 50 (median of rounds, its processes from /proc), sharing the machine's cores with the bench process and the sandbox. A chunk's orders are one JSON text and its outcomes one row; only the claims across batches are a row per order.`,
);

// The headline rows: each side against the hand loop with the gateway LATENCIES ms away, sides rotated each round.
const latencySides: Side[] = ['hand', 'batch', 'batchJournal', 'batchLedger', 'batchPooled', 'batchPooledPolling'];
const headline: string[] = [
  `**Against a gateway at a real distance** (the sandbox's capture latency set to 20 and 100 ms; ${ORDERS.toLocaleString('en')} captures, chunks of 50, concurrency ${CONCURRENCY}, ${LATENCY_ROUNDS} rounds per latency, sides rotated; the ratio is the median of each round's time over that round's hand loop; the wire's limit is ${CHUNKS} requests / ${CONCURRENCY} at a time × the latency). Goals: journal ≤ 1.03x and PostgreSQL ≤ 1.05x at 20 ms, both ≤ 1.02x at 100 ms. The last two columns reach the same ledger through PgBouncer 1.18 in transaction mode (pool of ${CONCURRENCY + 4}, on this machine): woken on a direct listen connection (\`ledgerListen\`), or polling every \`pollMs\` (200 ms) with none.`,
  '',
  '| latency | wire limit, ms | hand loop, ms | no journal | journal | PostgreSQL, one worker | via PgBouncer (transaction), direct listen | via PgBouncer, polling |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const latency of LATENCIES) {
  await setCaptureLatency(url, latency);
  const times: Partial<Record<Side, number[]>> = {};
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (let k = 0; k < latencySides.length; k++) {
      const side = latencySides[(round + k) % latencySides.length]!;
      const m = await sides[side](await authorise(ORDERS, `L${latency}-${round}-${side}`), -2, `l${latency}-${round}`);
      (times[side] ??= []).push(m.ms);
    }
  }
  const ratio = (side: Side) => `**${median(times[side]!.map((ms, round) => ms / times.hand![round]!)).toFixed(2)}x**`;
  headline.push(
    `| ${latency} ms | ${Math.ceil(CHUNKS / CONCURRENCY) * latency} | ${median(times.hand!).toFixed(0)} | ${ratio('batch')} | ${ratio('batchJournal')} | ${ratio('batchLedger')} | ${ratio('batchPooled')} | ${ratio('batchPooledPolling')} |`,
  );
  console.log(headline.at(-1));
}
await setCaptureLatency(url, 0);
rows.unshift(
  ...headline,
  '',
  'With no latency (the sandbox answers at once and shares the two cores with the runner, so these ratios measure the machine; CPU per request is the figure to read):',
  '',
);

// Peak RSS while streaming orders that succeed from a file: STREAMED orders are authorised first (in the sandbox
// process, written to the file as they come), so every capture is applied and its outcome journaled.
const file = join(dir, 'orders.jsonl');
const out = createWriteStream(file);
for (let i = 0; i < STREAMED; i += 2000) {
  for (const order of await authorise(Math.min(2000, STREAMED - i), `RSS${i}`)) if (!out.write(JSON.stringify(order) + '\n')) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
const rss = spawnSync(
  process.execPath,
  ['--conditions=@gw/source', '--expose-gc', join(import.meta.dirname, 'rss-child.ts'), url, file, join(dir, 'rss.jsonl')],
  { encoding: 'utf8' },
);
if (rss.status !== 0) throw new Error(rss.stderr);
const m = JSON.parse(rss.stdout.trim().split('\n').at(-1)!) as {
  base: number;
  peak: number;
  growthMb: number;
  counts: Record<string, number>;
  seconds: number;
};
rows.push(
  '',
  `Streaming ${STREAMED.toLocaleString('en')} orders that succeed from a JSONL file through runBatch (journal on, \`keepOutcomes: false\`): RSS ${(m.base / 2 ** 20).toFixed(0)} MB at the start, peak ${(m.peak / 2 ** 20).toFixed(0)} MB, growth **${m.growthMb.toFixed(1)} MB** (goal under 100 MB); ${m.seconds.toFixed(1)} s; outcomes ${JSON.stringify(m.counts)}.`,
);
// Does a fleet scale? One process and three (the coordinator and two workers) on one batch in the ledger.
// The sandbox and the cluster above are done with: stopped, so that neither (the sandbox's heap of ~1M orders, the
// cluster's autovacuum over their rows) takes CPU from the fleet's own.
child.kill('SIGTERM');
bouncer.stop();
cluster.stop();
rows.push('', ...(await quotaSection()));
rows.push('', ...(await fleetSection()));
writeResultsSection('batch', rows.join('\n'));
console.log(rows.join('\n'));
// The clients' and the ledger's pools would keep the process alive: exit (the exit hook stops the sandbox and the cluster).
process.exit(0);
