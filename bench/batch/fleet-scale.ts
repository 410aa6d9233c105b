// Does a fleet scale? 20,000 captures kept in PostgreSQL, run by one process (`gw batch … --ledger`, the coordinator)
// and by three started together (the coordinator and two workers), each at concurrency 8, against the sandbox in its
// own process with its capture latency at 100 and 20 ms; the processes, the sandbox and PostgreSQL share the machine.
// Prints each run's wall time (spawn to the last exit), the wire's limit, the chunks each process did, its statements
// and how long Node took to load gw, and the ratio of throughputs. The processes run the built packages (dist), as
// `gw batch` does: build first.
//   cd bench && npx -y pnpm@10.34.9 build && npx -y pnpm@10.34.9 exec node --conditions=@gw/source batch/fleet-scale.ts [orders=20000] [rounds=2]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { newBatchId } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { spawn } from 'node:child_process';
import { setCaptureLatency, startSandboxProcess } from '../sandbox/sandbox-process.ts';
import { authoriseOrders, type AuthorisingClient } from './authorise-orders.ts';
import { median } from '../median.ts';

const ORDERS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 2);
const CONCURRENCY = 8;
const LATENCIES = (process.env.GW_BENCH_FLEET_LATENCIES ?? '100,20').split(',').map(Number);

const { url } = await startSandboxProcess();
const cluster = await startCluster();
process.on('exit', () => cluster.stop());
const ledger = await createDatabase(cluster.url, 'fleet_scale');
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const setup = createClient({ baseUrl: url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer }) as unknown as AuthorisingClient;
const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-scale-'));

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
async function run(processes: number, latency: number, round: number): Promise<{ ms: number; reports: ChildReport[] }> {
  const orders = await authoriseOrders(setup, ORDERS, `F${latency}-${processes}-${round}`);
  const file = join(dir, `orders-${latency}-${processes}-${round}.json`);
  writeFileSync(file, JSON.stringify(orders));
  const env = { SANDBOX_URL: url, LEDGER: ledger, BATCH: newBatchId(), ORDERS: file, CONCURRENCY: String(CONCURRENCY) };
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

const lines: string[] = [];
for (const latency of LATENCIES) {
  await setCaptureLatency(url, latency);
  const times: Record<number, number[]> = { 1: [], 3: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const processes of round % 2 === 0 ? [1, 3] : [3, 1]) {
      const { ms, reports } = await run(processes, latency, round);
      times[processes]!.push(ms);
      console.log(`${latency} ms, ${processes} process(es), round ${round}: ${(ms / 1000).toFixed(2)} s; ${reports.map((r) => `${r.role}: loaded in ${(r.loadMs / 1000).toFixed(2)} s, ${r.worker.chunks} chunks, ${r.roundTrips} statements, its batch ${(r.durationMs / 1000).toFixed(2)} s`).join('; ')}`);
    }
  }
  const limit = (chunks: number, slots: number) => Math.ceil(chunks / slots) * latency;
  const chunks = Math.ceil(ORDERS / 50);
  const one = median(times[1]!);
  const three = median(times[3]!);
  lines.push(`| ${latency} ms | ${(one / 1000).toFixed(2)} s (wire limit ${(limit(chunks, CONCURRENCY) / 1000).toFixed(2)} s, ${(one / limit(chunks, CONCURRENCY)).toFixed(2)}x) | ${(three / 1000).toFixed(2)} s (wire limit ${(limit(chunks, 3 * CONCURRENCY) / 1000).toFixed(2)} s) | **${(one / three).toFixed(2)}x** |`);
}
await setCaptureLatency(url, 0);
console.log(`\n${ORDERS.toLocaleString('en')} captures in a PostgreSQL ledger, concurrency ${CONCURRENCY} per process, ${ROUNDS} rounds (medians; wall time from spawning the processes to the last exit, Node's start included)\n`);
console.log('| latency | one process | three processes | throughput, three over one |');
console.log('|---:|---:|---:|---:|');
for (const line of lines) console.log(line);
process.exit(0);
