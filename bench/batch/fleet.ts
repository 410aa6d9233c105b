// Does a fleet scale? (bench.ts's last section) 20,000 captures kept in PostgreSQL, run by one process (the
// coordinator) and by three started together (the coordinator and two workers), each at concurrency 8, against the
// sandbox in its own process with its capture latency at 100 and 20 ms; the processes, the sandbox and PostgreSQL share
// the machine. Each run's wall time (spawn to the last exit), the wire's limit, where each process's time went (Node
// loading gw, its batch) and the ratio of throughputs. The processes run the built packages (dist), bundled as `gw` is:
// `pnpm bench` builds first. Run alone (`node --conditions=@gw/source batch/fleet.ts`, after a build) it prints the
// rows without writing RESULTS.md; GW_BENCH_FLEET_PROCESSES=3 runs only the three-process side.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newBatchId } from '@gw/batch';
import { build } from 'rolldown';
import { setCaptureLatency, startSandboxProcess } from '../sandbox/sandbox-process.ts';
import { median } from '../results.ts';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox/client';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { authoriseOrders, type AuthorisingClient } from '@gw/test-support';
import { postgresCpuMicros, postgresCpuSince, processCpuMicros } from '../cpu.ts';

const ORDERS = Number(process.env.GW_BENCH_FLEET_ORDERS ?? 20_000);
const ROUNDS = Number(process.env.GW_BENCH_FLEET_ROUNDS ?? 5);
const CONCURRENCY = 8;
const LATENCIES = (process.env.GW_BENCH_FLEET_LATENCIES ?? '300,100,20').split(',').filter(Boolean).map(Number);
const SIDES = (process.env.GW_BENCH_FLEET_PROCESSES ?? '1,3').split(',').filter(Boolean).map(Number);
// Extra flags for the fleet processes' Node (e.g. --cpu-prof --cpu-prof-dir=DIR).
const NODE_FLAGS = (process.env.GW_BENCH_FLEET_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/** What the fleet rows need: the sandbox process, an empty ledger database, and how to authorise orders. */
interface FleetBench {
  readonly url: string;
  readonly ledgerUrl: string;
  readonly authorise: (count: number, prefix: string) => Promise<object[]>;
  /** The sandbox process's CPU time so far, µs. */
  readonly sandboxCpuMicros: () => number;
  /** PostgreSQL's processes' CPU times now, and the µs they spent since such a reading. */
  readonly postgresCpuMicros: () => Map<string, number>;
  readonly postgresCpuSince: (before: Map<string, number>) => number;
}

/**
 * The fleet section against a sandbox process and a PostgreSQL cluster of its own: a sandbox that already holds the
 * orders of other benches spends more CPU per request, and a cluster that holds their rows runs autovacuum meanwhile;
 * both weigh on the three-process side most.
 */
export async function fleetSection(): Promise<string[]> {
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const { child, url } = await startSandboxProcess();
  const cluster = await startCluster();
  const port = new URL(cluster.url).port;
  const setup = createClient({
    baseUrl: url,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifier: signer,
  }) as unknown as AuthorisingClient;
  try {
    return await fleetRows({
      url,
      ledgerUrl: await createDatabase(cluster.url, 'fleet'),
      authorise: (count, prefix) => authoriseOrders(setup, count, { prefix }),
      sandboxCpuMicros: () => processCpuMicros(child.pid),
      postgresCpuMicros: () => postgresCpuMicros(port),
      postgresCpuSince: (before) => postgresCpuSince(port, before).total,
    });
  } finally {
    child.kill('SIGTERM');
    cluster.stop();
  }
}

export interface ChildReport {
  role: string;
  worker: { chunks: number; takenOver: number };
  roundTrips: number;
  durationMs: number;
  loadMs: number;
  startedAt: number;
  cpuMs: number;
  loadCpuMs: number;
  requests: [number, number][];
  counts: Record<string, number>;
  throttled: number;
}

/** One run's wall time, its time once every process had loaded gw, and the CPU every part spent (ms). */
interface FleetRun {
  ms: number;
  started: number;
  loadedMs: number;
  reports: ChildReport[];
  sandboxCpuMs: number;
  postgresCpuMs: number;
}

const CHILD = join(import.meta.dirname, 'fleet-child.ts');

/**
 * fleet-child.ts and the built packages it imports, bundled as the gw CLI's build bundles `gw` (one file, dist of each
 * package), and started as bin/gw.js starts it (Node's compile cache on, then the bundle); the starter's path.
 */
export async function bundleChild(dir: string): Promise<string> {
  await build({ input: { 'fleet-child': CHILD }, platform: 'node', logLevel: 'warn', output: { dir, format: 'esm', entryFileNames: '[name].js' } });
  const starter = join(dir, 'start.js');
  writeFileSync(starter, "import { enableCompileCache } from 'node:module';\nenableCompileCache();\nawait import('./fleet-child.js');\n");
  return starter;
}

/** Starts one fleet process (the bundled child); resolves with its exit and output. */
export function start(bundled: string, env: Record<string, string>): { exited: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [...NODE_FLAGS, bundled], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return { exited: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

/** One batch run by `processes` processes started together; its wall time and what each did. */
async function run(bench: FleetBench, dir: string, child: string, processes: number, latency: number, round: number): Promise<FleetRun> {
  const orders = await bench.authorise(ORDERS, `F${latency}-${processes}-${round}`);
  const file = join(dir, `orders-${latency}-${processes}-${round}.jsonl`);
  writeFileSync(file, orders.map((order) => `${JSON.stringify(order)}\n`).join(''));
  const env = { SANDBOX_URL: bench.url, LEDGER: bench.ledgerUrl, BATCH: newBatchId(), ORDERS: file, CONCURRENCY: String(CONCURRENCY) };
  const sandboxBefore = bench.sandboxCpuMicros();
  const postgresBefore = bench.postgresCpuMicros();
  const started = performance.timeOrigin + performance.now();
  const children = [start(child, { ...env, ROLE: 'run' })];
  for (let i = 1; i < processes; i++) children.push(start(child, { ...env, ROLE: 'worker' }));
  const exits = await Promise.all(children.map((c) => c.exited));
  const ended = performance.timeOrigin + performance.now();
  const ms = ended - started;
  const sandboxCpuMs = (bench.sandboxCpuMicros() - sandboxBefore) / 1000;
  const postgresCpuMs = bench.postgresCpuSince(postgresBefore) / 1000;
  for (const e of exits) if (e.code !== 0) throw new Error(`a process exited ${e.code}: ${e.stderr.slice(0, 500)}`);
  const reports = exits.map((e) => JSON.parse(e.stdout) as ChildReport);
  if (reports[0]!.counts.succeeded !== ORDERS) throw new Error(`not every capture succeeded: ${JSON.stringify(reports[0]!.counts)}`);
  // Once loaded: from the first process's batch start (Node done loading gw) to the last exit.
  const loadedMs = ended - Math.min(...reports.map((r) => r.startedAt));
  return { ms, started, loadedMs, reports, sandboxCpuMs, postgresCpuMs };
}

/** A process's requests: its first and last, their median time, and how many were in flight on average meanwhile. */
function requestsLine(r: ChildReport, started: number): string {
  if (r.requests.length === 0) return 'no requests';
  const first = r.requests[0]![0] - started;
  const last = Math.max(...r.requests.map(([, end]) => end)) - started;
  const busy = r.requests.reduce((sum, [start, end]) => sum + end - start, 0) / (last - first);
  const times = r.requests.map(([start, end]) => end - start);
  return `first request ${(first / 1000).toFixed(2)} s, last answer ${(last / 1000).toFixed(2)} s, request median ${median(times).toFixed(1)} ms (its first ${CONCURRENCY}: ${median(times.slice(0, CONCURRENCY)).toFixed(0)} ms), ${busy.toFixed(2)} of ${CONCURRENCY} in flight`;
}

/** When every process's slots were first all busy (a 50 ms stretch with requests in flight on 95% of them), since spawning. */
function slotsFullLine(r: FleetRun): string {
  const requests = r.reports.flatMap((c) => c.requests);
  const slots = CONCURRENCY * r.reports.length;
  for (let t = 0; t < r.ms; t += 50) {
    const [from, to] = [r.started + t, r.started + t + 50];
    const inFlight = requests.reduce((sum, [start, end]) => sum + Math.max(0, Math.min(end, to) - Math.max(start, from)), 0) / 50;
    if (inFlight >= 0.95 * slots) return `all ${slots} slots busy from ${(t / 1000).toFixed(2)} s`;
  }
  return `never all ${slots} slots busy`;
}

/** A run's CPU: every part's, and how many of the machine's cores that kept busy on average. */
function cpuLine(r: FleetRun): string {
  const children = r.reports.reduce((sum, c) => sum + c.cpuMs, 0);
  const busy = (children + r.sandboxCpuMs + r.postgresCpuMs) / r.ms;
  return `CPU: gw processes ${children.toFixed(0)} ms, sandbox ${r.sandboxCpuMs.toFixed(0)} ms, PostgreSQL ${r.postgresCpuMs.toFixed(0)} ms, cores busy ${busy.toFixed(2)}`;
}

/** The fleet section of the batch bench: one and three processes at each latency, as markdown lines. */
async function fleetRows(bench: FleetBench): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-'));
  const child = await bundleChild(dir);
  const lines: string[] = [];
  const spent: string[] = [];
  for (const latency of LATENCIES) {
    await setCaptureLatency(bench.url, latency);
    const times: Record<number, number[]> = Object.fromEntries(SIDES.map((n) => [n, []]));
    const loaded: Record<number, number[]> = Object.fromEntries(SIDES.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const processes of SIDES.length === 1 ? SIDES : round % 2 === 0 ? SIDES : SIDES.toReversed()) {
        const measured = await run(bench, dir, child, processes, latency, round);
        const { ms, reports } = measured;
        times[processes]!.push(ms);
        loaded[processes]!.push(measured.loadedMs);
        const where = reports
          .map(
            (r) =>
              `${r.role}: Node loading gw ${(r.loadMs / 1000).toFixed(2)} s (CPU ${r.loadCpuMs.toFixed(0)} ms), its batch ${(r.durationMs / 1000).toFixed(2)} s (CPU ${(r.cpuMs - r.loadCpuMs).toFixed(0)} ms), ${r.worker.chunks} chunks, ${r.roundTrips} statements, ${requestsLine(r, measured.started)}`,
          )
          .join('; ');
        spent.push(
          `- ${latency} ms, ${processes} process${processes === 1 ? '' : 'es'}, round ${round + 1}: ${(ms / 1000).toFixed(2)} s in all, ${(measured.loadedMs / 1000).toFixed(2)} s once loaded, ${slotsFullLine(measured)}; ${cpuLine(measured)}; ${where}`,
        );
        console.log(spent.at(-1));
      }
    }
    if (!times[1] || !times[3]) continue;
    const limit = (chunks: number, slots: number) => Math.ceil(chunks / slots) * latency;
    const chunks = Math.ceil(ORDERS / 50);
    const one = median(times[1]!);
    const three = median(times[3]!);
    const oneLoaded = median(loaded[1]!);
    const threeLoaded = median(loaded[3]!);
    lines.push(
      `| ${latency} ms | ${(one / 1000).toFixed(2)} s (wire limit ${(limit(chunks, CONCURRENCY) / 1000).toFixed(2)} s, ${(one / limit(chunks, CONCURRENCY)).toFixed(2)}x) | ${(three / 1000).toFixed(2)} s (wire limit ${(limit(chunks, 3 * CONCURRENCY) / 1000).toFixed(2)} s) | **${(one / three).toFixed(2)}x** | ${(oneLoaded / 1000).toFixed(2)} s / ${(threeLoaded / 1000).toFixed(2)} s: ${(oneLoaded / threeLoaded).toFixed(2)}x |`,
    );
  }
  await setCaptureLatency(bench.url, 0);
  return [
    `**Does a fleet scale?** ${ORDERS.toLocaleString('en')} captures in a PostgreSQL ledger, run by one process and by three started together (the coordinator and two workers), concurrency ${CONCURRENCY} each, each process the built packages bundled into one file as \`gw\` is, the sandbox and PostgreSQL on the same two cores; medians of ${ROUNDS} rounds; wall time from spawning the processes to the last exit, Node's start included. Goals: three at least 2.7x one at 300 ms, 2.5x at 100 ms, 1.8x at 20 ms; one within 1.15x of the wire's limit at 100 ms.`,
    '',
    '| latency | one process | three processes | throughput, three over one | once loaded (first batch start to last exit): one / three |',
    '|---:|---:|---:|---:|---:|',
    ...lines,
    '',
    "Where the time went (CPU: each process's loading and batch, the sandbox's and PostgreSQL's during the run; cores busy = all that CPU over the wall time, of the 2 cores):",
    '',
    ...spent,
  ];
}

// Alone: the rows printed (RESULTS.md is bench.ts's to write).
if (import.meta.main) {
  console.log((await fleetSection()).join('\n'));
  process.exit(0);
}
