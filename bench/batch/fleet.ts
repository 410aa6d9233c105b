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
import type { CaptureOrder } from './authorise-orders.ts';
import { median } from '../median.ts';

const ORDERS = Number(process.env.GW_BENCH_FLEET_ORDERS ?? 20_000);
const ROUNDS = Number(process.env.GW_BENCH_FLEET_ROUNDS ?? 2);
const CONCURRENCY = 8;
const LATENCIES = (process.env.GW_BENCH_FLEET_LATENCIES ?? '100,20').split(',').filter(Boolean).map(Number);

/** What the fleet rows need: the sandbox process, an empty ledger database, and how to authorise orders. */
export interface FleetBench {
  readonly url: string;
  readonly ledgerUrl: string;
  readonly authorise: (count: number, prefix: string) => Promise<CaptureOrder[]>;
}

interface ChildReport { role: string; worker: { chunks: number; takenOver: number }; roundTrips: number; durationMs: number; loadMs: number; counts: Record<string, number> }

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
async function run(bench: FleetBench, dir: string, processes: number, latency: number, round: number): Promise<{ ms: number; reports: ChildReport[] }> {
  const orders = await bench.authorise(ORDERS, `F${latency}-${processes}-${round}`);
  const file = join(dir, `orders-${latency}-${processes}-${round}.json`);
  writeFileSync(file, JSON.stringify(orders));
  const env = { SANDBOX_URL: bench.url, LEDGER: bench.ledgerUrl, BATCH: newBatchId(), ORDERS: file, CONCURRENCY: String(CONCURRENCY) };
  const started = performance.now();
  const children = [start({ ...env, ROLE: 'run' })];
  for (let i = 1; i < processes; i++) children.push(start({ ...env, ROLE: 'worker' }));
  const exits = await Promise.all(children.map((c) => c.exited));
  const ms = performance.now() - started;
  for (const e of exits) if (e.code !== 0) throw new Error(`a process exited ${e.code}: ${e.stderr.slice(0, 500)}`);
  const reports = exits.map((e) => JSON.parse(e.stdout) as ChildReport);
  if (reports[0]!.counts.succeeded !== ORDERS) throw new Error(`not every capture succeeded: ${JSON.stringify(reports[0]!.counts)}`);
  return { ms, reports };
}

/** The fleet section of the batch bench: one and three processes at each latency, as markdown lines. */
export async function fleetRows(bench: FleetBench): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-'));
  const lines: string[] = [];
  const spent: string[] = [];
  for (const latency of LATENCIES) {
    await setCaptureLatency(bench.url, latency);
    const times: Record<number, number[]> = { 1: [], 3: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const processes of round % 2 === 0 ? [1, 3] : [3, 1]) {
        const { ms, reports } = await run(bench, dir, processes, latency, round);
        times[processes]!.push(ms);
        const where = reports.map((r) => `${r.role}: Node loading gw ${(r.loadMs / 1000).toFixed(2)} s, its batch ${(r.durationMs / 1000).toFixed(2)} s, ${r.worker.chunks} chunks, ${r.roundTrips} statements`).join('; ');
        spent.push(`- ${latency} ms, ${processes} process${processes === 1 ? '' : 'es'}, round ${round + 1}: ${(ms / 1000).toFixed(2)} s in all; ${where}`);
        console.log(spent.at(-1));
      }
    }
    const limit = (chunks: number, slots: number) => Math.ceil(chunks / slots) * latency;
    const chunks = Math.ceil(ORDERS / 50);
    const one = median(times[1]!);
    const three = median(times[3]!);
    lines.push(`| ${latency} ms | ${(one / 1000).toFixed(2)} s (wire limit ${(limit(chunks, CONCURRENCY) / 1000).toFixed(2)} s, ${(one / limit(chunks, CONCURRENCY)).toFixed(2)}x) | ${(three / 1000).toFixed(2)} s (wire limit ${(limit(chunks, 3 * CONCURRENCY) / 1000).toFixed(2)} s) | **${(one / three).toFixed(2)}x** |`);
  }
  await setCaptureLatency(bench.url, 0);
  return [
    `**Does a fleet scale?** ${ORDERS.toLocaleString('en')} captures in a PostgreSQL ledger, run by one process and by three started together (the coordinator and two workers), concurrency ${CONCURRENCY} each, the built packages as \`gw batch\` runs them, the sandbox and PostgreSQL on the same two cores; medians of ${ROUNDS} rounds; wall time from spawning the processes to the last exit, Node's start included. Goals: three at least 2.5x one at 100 ms, 1.8x at 20 ms; one within 1.15x of the wire's limit at 100 ms.`,
    '',
    '| latency | one process | three processes | throughput, three over one |',
    '|---:|---:|---:|---:|',
    ...lines,
    '',
    'Where the time went:',
    '',
    ...spent,
  ];
}
