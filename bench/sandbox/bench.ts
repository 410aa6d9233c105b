// Requests per second for POST /v1/capture: @gw/sandbox vs a bare node:http server answering a fixed body vs
// `prism mock spec/v1/openapi.yaml`, each in its own process, loaded in turn by autocannon from this process, in one run.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { plainNpmEnv } from '../../scripts/plain-npm-env.ts';
import { writeResultsSection } from '../results.ts';

const DURATION_S = Number(process.env.GW_BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const PRISM = '@stoplight/prism-cli@5.16.0';
const root = join(import.meta.dirname, '../..');

async function answers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/v1/capture`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    return true;
  } catch {
    return false;
  }
}

// Prism's log lines are not stable to match: wait until its port answers instead.
async function startOnPort(command: string, args: string[], port: number, timeoutMs = 180_000): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, { cwd: root, stdio: 'ignore', detached: true, env: plainNpmEnv({ node: 'workspace' }) });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
    if (await answers(port)) return { child, port };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${command} ${args.join(' ')} did not answer on ${port}`);
}

async function start(command: string, args: string[], ready: RegExp, timeoutMs = 120_000, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')} did not start`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      const match = ready.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}`)));
  });
}

async function captureBody(): Promise<string> {
  const record = {
    merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
    account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
    capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }],
  };
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const encryption_data = await signer.sign(createSignableMessage({ operation: 'capture', record, body: JSON.stringify(record) }));
  return JSON.stringify({ ...record, encryption_data });
}

async function load(port: number, body: string): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({ url: `http://127.0.0.1:${port}/v1/capture`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, duration: DURATION_S });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

const body = await captureBody();
const node = process.execPath;
const rows: Record<string, Awaited<ReturnType<typeof load>>> = {};
for (const [name, launch] of [
  ['bare node:http', () => start(node, [join(import.meta.dirname, 'bare-server.ts')], /PORT (\d+)/)],
  ['bare node:http, answers from setImmediate', () => start(node, [join(import.meta.dirname, 'bare-server.ts')], /PORT (\d+)/, 120_000, { ...process.env, GW_BARE_DEFER: 'immediate' })],
  ['@gw/sandbox', () => start(node, ['--conditions=@gw/source', join(import.meta.dirname, 'sandbox-server.ts')], /PORT (\d+)/)],
  ['prism mock', () => startOnPort('npx', ['-y', PRISM, 'mock', '-p', '4010', '-h', '127.0.0.1', 'spec/v1/openapi.yaml'], 4010)],
] as const) {
  const { child, port } = await launch();
  try {
    await load(port, body); // warm-up
    rows[name] = await load(port, body);
    console.log(name, rows[name]);
  } finally {
    // npx runs Prism under a shell: end the whole process group.
    if (child.spawnargs[0] === 'npx' && child.pid) process.kill(-child.pid, 'SIGTERM');
    else child.kill('SIGTERM');
  }
}

const sandbox = rows['@gw/sandbox']!;
const bare = rows['bare node:http']!;
const bareDeferred = rows['bare node:http, answers from setImmediate']!;
const prism = rows['prism mock']!;
const lines = [
  `POST /v1/capture (one order, signed), ${CONNECTIONS} connections, ${DURATION_S} s each after a warm-up, each server in its own process, autocannon in the bench process; node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| server | requests/s | p50 ms | p99 ms | errors | non-2xx |',
  '|---|---:|---:|---:|---:|---:|',
  ...Object.entries(rows).map(([n, r]) => `| ${n} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`),
  '',
  `- sandbox / bare node:http: **${(sandbox.rps / bare.rps).toFixed(2)}x** (goal at least 0.4x)`,
  `- for reference, sandbox / bare node:http answering from setImmediate: ${(sandbox.rps / bareDeferred.rps).toFixed(2)}x. The sandbox writes each answer from setImmediate (after the poll phase has read the other requests that arrived), which alone takes a bare server from ${Math.round(bare.rps)} to ${Math.round(bareDeferred.rps)} requests/s here; the goal is judged against the bare server as the issue defines it (answering at once).`,
  `- sandbox / prism mock: **${(sandbox.rps / prism.rps).toFixed(2)}x** (goal at least 5x)`,
];
writeResultsSection('sandbox', lines.join('\n'));
console.log(lines.join('\n'));
