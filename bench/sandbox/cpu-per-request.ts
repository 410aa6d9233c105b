// CPU time per request of @gw/sandbox (state in memory, and with a state file) against a bare node:http server, each
// server in its own process, its CPU time read from /proc (schedstat, ns), for the bench's exact request
// (POST /v1/capture, one order the sandbox does not hold, signed, 32 connections, keep-alive), sent by autocannon from
// this process. CPU per request is what bounds a server's throughput, and load on a shared machine distorts it far less
// than requests/s. GW_CPU_REQUESTS (default 12000) per server per round, GW_CPU_ROUNDS (default 5) interleaved rounds
// after a warm-up; each server's figure is its best round (other processes can only add to a process's CPU time per
// request, through caches and shared cores, never take from it), with the median beside it; GW_CPU_OTHER_ROOT=<checkout>[,<checkout>...] adds each checkout's bench/sandbox/sandbox-server.ts (e.g. an
// older commit in a `git worktree`, with node_modules copied in) as another server, for a before/after in one run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { preciseCpuMicros } from '../cpu.ts';

const REQUESTS = Number(process.env.GW_CPU_REQUESTS ?? 12_000);
const ROUNDS = Number(process.env.GW_CPU_ROUNDS ?? 5);
const CONNECTIONS = 32;
const here = import.meta.dirname;

/** The signed JSON body of the bench's request: POST /v1/capture of one order the sandbox does not hold. */
export async function captureBody(): Promise<string> {
  const record = {
    merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
    account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
    capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }],
  };
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: JSON.stringify(record) }));
  return JSON.stringify({ ...record, encryption_data });
}

/** A server process and its CPU time so far (µs). */
interface Measured {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  cpu(): Promise<number>;
}

async function startMeasured(name: string, script: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const child = spawn(process.execPath, ['--conditions=@gw/source', script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const port = Number(/PORT (\d+)/.exec(await next())?.[1]);
  if (!port) throw new Error(`${name} did not print its port`);
  const cpu = async () => {
    const micros = preciseCpuMicros(child.pid!);
    if (Number.isNaN(micros)) throw new Error(`${name}: its CPU time cannot be read from /proc`);
    return micros;
  };
  return { name, child, port, cpu };
}

/** CPU microseconds the server spent on `count` requests, and how many answers were not 2xx or failed. */
async function cpuFor(server: Measured, body: string, count: number): Promise<{ micros: number; bad: number }> {
  const before = await server.cpu();
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/v1/capture`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    amount: count,
  });
  const after = await server.cpu();
  return { micros: after - before, bad: result.non2xx + result.errors };
}

/** One server's CPU time per request and its ratio to the bare server's, measured in the same run. */
export interface CpuRow {
  readonly name: string;
  /** The best round's CPU µs per request: the least disturbed by other processes. */
  readonly microsPerRequest: number;
  /** The median round's. */
  readonly medianMicros: number;
  /** microsPerRequest / the bare server's. */
  readonly ratio: number;
}

/** What cpuPerRequest measured, and under which conditions. */
export interface CpuResult {
  readonly rows: readonly CpuRow[];
  readonly requests: number;
  readonly rounds: number;
  /** The load average when the run ended (a shared machine inflates CPU time per request a little, all servers alike). */
  readonly load: string;
}

/**
 * Measures the servers' own CPU time per request: bare node:http, the sandbox in memory and with a state file (and the
 * sandbox of each comma-separated checkout in `otherRoot`), in interleaved rounds after a warm-up. Throws if any answer was not 2xx.
 */
export async function cpuPerRequest({
  requests = REQUESTS,
  rounds = ROUNDS,
  otherRoot = process.env.GW_CPU_OTHER_ROOT,
  log = console.log,
} = {}): Promise<CpuResult> {
  const body = await captureBody();
  const stateDir = mkdtempSync(join(tmpdir(), 'gw-cpu-state-'));
  const servers: Measured[] = [];
  try {
    servers.push(await startMeasured('bare node:http', join(here, 'bare-server.ts')));
    servers.push(await startMeasured('@gw/sandbox', join(here, 'sandbox-server.ts')));
    servers.push(await startMeasured('@gw/sandbox --state', join(here, 'sandbox-server.ts'), { GW_SANDBOX_STATE: join(stateDir, 'capture.sqlite') }));
    for (const root of (otherRoot ?? '').split(',').filter(Boolean))
      servers.push(await startMeasured(`@gw/sandbox at ${root}`, join(root, 'bench/sandbox/sandbox-server.ts')));
    for (const server of servers) await cpuFor(server, body, Math.min(requests, 10_000)); // warm-up: JIT, connections
    const perRound = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    let bad = 0;
    for (let round = 0; round < rounds; round++) {
      for (const server of servers) {
        const { micros, bad: b } = await cpuFor(server, body, requests);
        perRound.get(server.name)!.push(micros / requests);
        bad += b;
        log(`cpu round ${round + 1} ${server.name}: ${(micros / requests).toFixed(1)} µs CPU per request`);
      }
    }
    if (bad > 0) throw new Error(`${bad} answers were not 2xx or failed: the figures do not measure the request`);
    const sorted = (name: string) => [...perRound.get(name)!].sort((a, b) => a - b);
    const bare = sorted('bare node:http')[0]!;
    const rows = servers.map((s) => {
      const rounds = sorted(s.name);
      return { name: s.name, microsPerRequest: rounds[0]!, medianMicros: rounds[Math.floor(rounds.length / 2)]!, ratio: rounds[0]! / bare };
    });
    return {
      rows,
      requests,
      rounds,
      load: loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** The result as a markdown table with its conditions. */
export function cpuTable(result: CpuResult): string {
  return [
    `Each server's own CPU time (from /proc, user + system) per POST /v1/capture, ${result.requests} requests x ${result.rounds} interleaved rounds per server after a warm-up, ${CONNECTIONS} connections, node ${process.version}, load average at the end ${result.load}. Best round (other processes only ever add CPU time per request) and median round:`,
    '',
    '| server | CPU µs per request, best round | median round | best / bare node:http |',
    '|---|---:|---:|---:|',
    ...result.rows.map((r) => `| ${r.name} | ${r.microsPerRequest.toFixed(1)} | ${r.medianMicros.toFixed(1)} | ${r.ratio.toFixed(2)}x |`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`\n${cpuTable(await cpuPerRequest())}`);
