// CPU time per request of @gw/sandbox (state in memory, and with a state file) against a bare node:http server, each
// server in its own process reporting its own process.cpuUsage() (cpu-report.ts), for the bench's exact request
// (POST /v1/capture, one order the sandbox does not hold, signed, 32 connections, keep-alive), sent by autocannon from
// this process. CPU per request is what bounds a server's throughput, and load on a shared machine distorts it far less
// than requests/s. GW_CPU_REQUESTS (default 20000) per server per round, GW_CPU_ROUNDS (default 3) interleaved rounds
// after a warm-up; GW_CPU_OTHER_ROOT=<checkout> adds that checkout's bench/sandbox/sandbox-server.ts (e.g. an older
// commit in a `git worktree`, with node_modules copied in) as a fourth server, for a before/after in one run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { captureBody } from './capture-body.ts';

const REQUESTS = Number(process.env.GW_CPU_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.GW_CPU_ROUNDS ?? 3);
const CONNECTIONS = 32;
const here = import.meta.dirname;
const report = join(here, 'cpu-report.ts');

/** A server process that answers `cpu` on stdin with its own CPU time. */
interface Measured {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  cpu(): Promise<number>;
}

async function startMeasured(name: string, script: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const args = ['--conditions=@gw/source', `--import=${report}`, ...(process.env.GW_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.GW_CPU_PROF}`, `--cpu-prof-name=${name.replace(/\W+/g, '-')}.cpuprofile`] : []), script];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const port = Number(/PORT (\d+)/.exec(await next())?.[1]);
  if (!port) throw new Error(`${name} did not print its port`);
  const cpu = async () => {
    const answer = next();
    child.stdin!.write('cpu\n');
    const match = /CPU (\d+) (\d+)/.exec(await answer);
    if (!match) throw new Error(`${name} did not report its CPU`);
    return Number(match[1]) + Number(match[2]);
  };
  return { name, child, port, cpu };
}

/** CPU microseconds the server spent on `count` requests, and how many answers were not 2xx or failed. */
async function cpuFor(server: Measured, body: string, count: number): Promise<{ micros: number; bad: number }> {
  const before = await server.cpu();
  const result = await autocannon({ url: `http://127.0.0.1:${server.port}/v1/capture`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, amount: count });
  const after = await server.cpu();
  return { micros: after - before, bad: result.non2xx + result.errors };
}

const body = await captureBody();
const stateDir = mkdtempSync(join(tmpdir(), 'gw-cpu-state-'));
const servers: Measured[] = [];
try {
  servers.push(await startMeasured('bare node:http', join(here, 'bare-server.ts')));
  servers.push(await startMeasured('@gw/sandbox', join(here, 'sandbox-server.ts')));
  servers.push(await startMeasured('@gw/sandbox --state', join(here, 'sandbox-server.ts'), { GW_SANDBOX_STATE: join(stateDir, 'capture.sqlite') }));
  const other = process.env.GW_CPU_OTHER_ROOT;
  if (other) servers.push(await startMeasured(`@gw/sandbox at ${other}`, join(other, 'bench/sandbox/sandbox-server.ts')));
  for (const server of servers) await cpuFor(server, body, Math.min(REQUESTS, 10_000)); // warm-up: JIT, connections
  const totals = new Map(servers.map((s) => [s.name, 0]));
  let bad = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of servers) {
      const { micros, bad: b } = await cpuFor(server, body, REQUESTS);
      totals.set(server.name, totals.get(server.name)! + micros);
      bad += b;
      console.log(`round ${round + 1} ${server.name}: ${(micros / REQUESTS).toFixed(1)} µs CPU per request`);
    }
  }
  const perRequest = (name: string) => totals.get(name)! / (REQUESTS * ROUNDS);
  const bare = perRequest('bare node:http');
  console.log(`\n${REQUESTS} requests x ${ROUNDS} rounds per server, ${CONNECTIONS} connections, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('| server | CPU µs per request | / bare node:http |');
  console.log('|---|---:|---:|');
  for (const server of servers) console.log(`| ${server.name} | ${perRequest(server.name).toFixed(1)} | ${(perRequest(server.name) / bare).toFixed(2)}x |`);
  if (bad > 0) throw new Error(`${bad} answers were not 2xx or failed: the figures do not measure the request`);
} finally {
  for (const server of servers) server.child.stdin!.write('exit\n');
  await new Promise((r) => setTimeout(r, 1000));
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  rmSync(stateDir, { recursive: true, force: true });
}
