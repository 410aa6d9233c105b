// Does a fleet scale? (bench.ts's last section) 20,000 captures kept in PostgreSQL, run by one process (the
// coordinator) and by three started together (the coordinator and two workers), each at concurrency 8, against the
// sandbox in its own process with its capture latency at 100 and 20 ms; the processes, the sandbox and PostgreSQL share
// the machine. Each run's wall time (spawn to the last exit), the wire's limit, where each process's time went (Node
// loading gw, its batch) and the ratio of throughputs. The processes run the built packages (dist), as `gw batch` does:
// `pnpm bench` builds first.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newBatchId } from '@gw/batch';
import { setCaptureLatency } from '../sandbox/sandbox-process.ts';
import { median } from '../results.ts';

const ORDERS = Number(process.env.GW_BENCH_FLEET_ORDERS ?? 20_000);
const ROUNDS = Number(process.env.GW_BENCH_FLEET_ROUNDS ?? 2);
const CONCURRENCY = 8;
const LATENCIES = (process.env.GW_BENCH_FLEET_LATENCIES ?? '100,20').split(',').filter(Boolean).map(Number);

/** What the fleet rows need: the sandbox process, an empty ledger database, and how to authorise orders. */
export interface FleetBench {
  readonly url: string;
  readonly ledgerUrl: string;
  readonly authorise: (count: number, prefix: string) => Promise<object[]>;
  /** The sandbox process's CPU time so far, µs. */
  readonly sandboxCpuMicros: () => number;
  /** PostgreSQL's processes' CPU times now, and the µs they spent since such a reading. */
  readonly postgresCpuMicros: () => Map<string, number>;
  readonly postgresCpuSince: (before: Map<string, number>) => number;
}

interface ChildReport { role: string; worker: { chunks: number; takenOver: number }; roundTrips: number; durationMs: number; loadMs: number; startedAt: number; cpuMs: number; loadCpuMs: number; counts: Record<string, number> }

/** One run's wall time, its time once every process had loaded gw, and the CPU every part spent (ms). */
interface FleetRun { ms: number; loadedMs: number; reports: ChildReport[]; sandboxCpuMs: number; postgresCpuMs: number }

const CHILD = join(import.meta.dirname, 'fleet-child.ts');

/** Starts one fleet process (no @gw/source condition: the packages' dist); resolves with its exit and output. */
function start(env: Record<string, string>): { exited: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return { exited: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

/** One batch run by `processes` processes started together; its wall time and what each did. */
async function run(bench: FleetBench, dir: string, processes: number, latency: number, round: number): Promise<FleetRun> {
  const orders = await bench.authorise(ORDERS, `F${latency}-${processes}-${round}`);
  const file = join(dir, `orders-${latency}-${processes}-${round}.json`);
  writeFileSync(file, JSON.stringify(orders));
  const env = { SANDBOX_URL: bench.url, LEDGER: bench.ledgerUrl, BATCH: newBatchId(), ORDERS: file, CONCURRENCY: String(CONCURRENCY) };
  const sandboxBefore = bench.sandboxCpuMicros();
  const postgresBefore = bench.postgresCpuMicros();
  const started = performance.timeOrigin + performance.now();
  const children = [start({ ...env, ROLE: 'run' })];
  for (let i = 1; i < processes; i++) children.push(start({ ...env, ROLE: 'worker' }));
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
  return { ms, loadedMs, reports, sandboxCpuMs, postgresCpuMs };
}

/** A run's CPU: every part's, and how many of the machine's cores that kept busy on average. */
function cpuLine(r: FleetRun): string {
  const children = r.reports.reduce((sum, c) => sum + c.cpuMs, 0);
  const busy = (children + r.sandboxCpuMs + r.postgresCpuMs) / r.ms;
  return `CPU: gw processes ${children.toFixed(0)} ms, sandbox ${r.sandboxCpuMs.toFixed(0)} ms, PostgreSQL ${r.postgresCpuMs.toFixed(0)} ms, cores busy ${busy.toFixed(2)}`;
}

/** The fleet section of the batch bench: one and three processes at each latency, as markdown lines. */
export async function fleetRows(bench: FleetBench): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-'));
  const lines: string[] = [];
  const spent: string[] = [];
  for (const latency of LATENCIES) {
    await setCaptureLatency(bench.url, latency);
    const times: Record<number, number[]> = { 1: [], 3: [] };
    const loaded: Record<number, number[]> = { 1: [], 3: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const processes of round % 2 === 0 ? [1, 3] : [3, 1]) {
        const measured = await run(bench, dir, processes, latency, round);
        const { ms, reports } = measured;
        times[processes]!.push(ms);
        loaded[processes]!.push(measured.loadedMs);
        const where = reports.map((r) => `${r.role}: Node loading gw ${(r.loadMs / 1000).toFixed(2)} s (CPU ${r.loadCpuMs.toFixed(0)} ms), its batch ${(r.durationMs / 1000).toFixed(2)} s (CPU ${(r.cpuMs - r.loadCpuMs).toFixed(0)} ms), ${r.worker.chunks} chunks, ${r.roundTrips} statements`).join('; ');
        spent.push(`- ${latency} ms, ${processes} process${processes === 1 ? '' : 'es'}, round ${round + 1}: ${(ms / 1000).toFixed(2)} s in all, ${(measured.loadedMs / 1000).toFixed(2)} s once loaded; ${cpuLine(measured)}; ${where}`);
        console.log(spent.at(-1));
      }
    }
    const limit = (chunks: number, slots: number) => Math.ceil(chunks / slots) * latency;
    const chunks = Math.ceil(ORDERS / 50);
    const one = median(times[1]!);
    const three = median(times[3]!);
    const oneLoaded = median(loaded[1]!);
    const threeLoaded = median(loaded[3]!);
    lines.push(`| ${latency} ms | ${(one / 1000).toFixed(2)} s (wire limit ${(limit(chunks, CONCURRENCY) / 1000).toFixed(2)} s, ${(one / limit(chunks, CONCURRENCY)).toFixed(2)}x) | ${(three / 1000).toFixed(2)} s (wire limit ${(limit(chunks, 3 * CONCURRENCY) / 1000).toFixed(2)} s) | **${(one / three).toFixed(2)}x** | ${(oneLoaded / 1000).toFixed(2)} s / ${(threeLoaded / 1000).toFixed(2)} s: ${(oneLoaded / threeLoaded).toFixed(2)}x |`);
  }
  await setCaptureLatency(bench.url, 0);
  return [
    `**Does a fleet scale?** ${ORDERS.toLocaleString('en')} captures in a PostgreSQL ledger, run by one process and by three started together (the coordinator and two workers), concurrency ${CONCURRENCY} each, the built packages as \`gw batch\` runs them, the sandbox and PostgreSQL on the same two cores; medians of ${ROUNDS} rounds; wall time from spawning the processes to the last exit, Node's start included. Goals: three at least 2.5x one at 100 ms, 1.8x at 20 ms; one within 1.15x of the wire's limit at 100 ms.`,
    '',
    '| latency | one process | three processes | throughput, three over one | once loaded (first batch start to last exit): one / three |',
    '|---:|---:|---:|---:|---:|',
    ...lines,
    '',
    'Where the time went (CPU: each process\'s loading and batch, the sandbox\'s and PostgreSQL\'s during the run; cores busy = all that CPU over the wall time, of the 2 cores):',
    '',
    ...spent,
  ];
}
