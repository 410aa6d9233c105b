// gw proxy's cost: POST /v1/capture sent straight to a sandbox, through `startProxy` in front of the same sandbox, and
// through a bare node:http forwarder (the hop alone, no checking) for reference, in one run, interleaved rounds: p50
// latency at concurrency 1 (the added latency) and requests/s at concurrency 32, with each process's CPU per request.
// Sandbox, proxy and forwarder each run in their own process (the last two are this file, started with a mode).
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent as HttpAgent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxy } from '@gw/proxy';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { Agent, request } from 'undici';
import { processCpuMicros } from '../cpu.ts';
import { median, writeResultsSection } from '../results.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const SERIAL_REQUESTS = Number(process.env.GW_BENCH_REQUESTS ?? 3000);
const PARALLEL_SECONDS = Number(process.env.GW_BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.GW_BENCH_ROUNDS ?? 5);
const CONCURRENCY = 32;
const GOAL_ADDED_P50_MS = 1;
const GOAL_THROUGHPUT = 0.7;
/** The proxy's CPU per exchange over a bare node:http forwarder's (issue 37): what checking adds to the hop. */
const GOAL_CPU_RATIO = 1.6;
const SIDES = ['direct', 'proxy', 'forwarder'] as const;
type Side = (typeof SIDES)[number];
/** One side's figures in one round: p50 at c=1, requests/s at c=32, CPU µs per request of the proxy or forwarder and of the sandbox. */
type Figures = { p50: number; rps: number; hopCpu: number; sandboxCpu: number };

/** A bare forwarder: node:http in, node:http out, bodies piped, no checking: what any Node.js hop costs. */
function startForwarder(upstream: URL): void {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const out = httpRequest({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent });
    out.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  server.listen(0, '127.0.0.1', () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => process.exit(0));
}

async function startChild(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=@gw/source', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

function captureBody(): string {
  const record = {
    merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
    account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
    capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }],
  };
  const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: encodeRequestBody('capture', record) }));
  return encodeRequestBody('capture', { ...record, encryption_data });
}

/** A call sending the signed capture to a base address over its own keep-alive agent. */
function caller(url: string, body: string): () => Promise<void> {
  const agent = new Agent({ keepAliveTimeout: 4_000, connections: CONCURRENCY });
  return async () => {
    const response = await request(`${url}/v1/capture`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} ${text}`);
  };
}

/** p50 latency in ms of `count` calls one after another. */
async function serialP50(call: () => Promise<void>, count: number): Promise<number> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call();
    latencies.push(performance.now() - t0);
  }
  return median(latencies);
}

/** Requests per second with CONCURRENCY calls in flight for `seconds`, and how many were made. */
async function throughput(call: () => Promise<void>, seconds: number): Promise<{ rps: number; done: number }> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await call();
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { rps: done / ((performance.now() - t0) / 1000), done };
}

async function bench(): Promise<void> {
  const sandbox = await startSandboxProcess();
  const hops = {
    proxy: await startChild([import.meta.filename, 'proxy-server', sandbox.url]),
    forwarder: await startChild([import.meta.filename, 'forwarder', sandbox.url]),
  };
  try {
    const body = captureBody();
    const calls: Record<Side, () => Promise<void>> = {
      direct: caller(sandbox.url, body),
      proxy: caller(hops.proxy.url, body),
      forwarder: caller(hops.forwarder.url, body),
    };
    for (const call of Object.values(calls)) {
      await serialP50(call, 500); // warm-up, every side
      await throughput(call, 1);
    }
    const rounds: Record<Side, Figures>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, the order rotating each round: drift of a shared machine hits every side alike.
      const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]!);
      const row = Object.fromEntries(SIDES.map((s) => [s, { p50: 0, rps: 0, hopCpu: 0, sandboxCpu: 0 }])) as Record<Side, Figures>;
      for (const side of order) row[side].p50 = await serialP50(calls[side], SERIAL_REQUESTS / ROUNDS);
      for (const side of order) {
        const hop = side === 'direct' ? undefined : hops[side].child.pid;
        const [hop0, sandbox0] = [processCpuMicros(hop), processCpuMicros(sandbox.child.pid)];
        const { rps, done } = await throughput(calls[side], PARALLEL_SECONDS);
        Object.assign(row[side], { rps, hopCpu: (processCpuMicros(hop) - hop0) / done, sandboxCpu: (processCpuMicros(sandbox.child.pid) - sandbox0) / done });
      }
      rounds.push(row);
      console.log(`round ${round + 1}`, JSON.stringify(row));
    }
    report(rounds);
  } finally {
    for (const { child } of [...Object.values(hops), sandbox]) child.kill('SIGTERM');
  }
}

function report(rounds: readonly Record<Side, Figures>[]): void {
  const med = (f: (r: Record<Side, Figures>) => number) => median(rounds.map(f));
  const added = med((r) => r.proxy.p50 - r.direct.p50);
  const ratio = med((r) => r.proxy.rps / r.direct.rps);
  const cpuRatio = med((r) => r.proxy.hopCpu / r.forwarder.hopCpu);
  const ms = (v: number) => v.toFixed(3);
  const us = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(1));
  const lines = [
    `POST /v1/capture (one order, signed): straight to @gw/sandbox; through \`startProxy\` (checking every exchange, verifying answer signatures) in front of the same sandbox; and, for reference, through a bare node:http forwarder (the hop alone, no checking). Sandbox, proxy, forwarder and this load generator each in their own process, undici 8 keep-alive agents; ${ROUNDS} interleaved rounds (the order rotating) after a warm-up, each round ${SERIAL_REQUESTS / ROUNDS} requests one at a time per side, then ${PARALLEL_SECONDS} s with ${CONCURRENCY} in flight per side; node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Figures: median over rounds; CPU per request from /proc at c=${CONCURRENCY}.`,
    '',
    '| round | direct p50 ms | proxy p50 ms | added ms | forwarder p50 ms | direct req/s | proxy req/s | proxy / direct | forwarder / direct | CPU µs/req: sandbox, proxy, forwarder |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rounds.map(
      (r, i) =>
        `| ${i + 1} | ${ms(r.direct.p50)} | ${ms(r.proxy.p50)} | ${ms(r.proxy.p50 - r.direct.p50)} | ${ms(r.forwarder.p50)} | ${Math.round(r.direct.rps)} | ${Math.round(r.proxy.rps)} | ${(r.proxy.rps / r.direct.rps).toFixed(2)}x | ${(r.forwarder.rps / r.direct.rps).toFixed(2)}x | ${us(r.direct.sandboxCpu)}, ${us(r.proxy.hopCpu)}, ${us(r.forwarder.hopCpu)} |`,
    ),
    '',
    `- p50 latency the proxy adds at concurrency 1: **${ms(added)} ms** (goal at most ${GOAL_ADDED_P50_MS} ms: ${added <= GOAL_ADDED_P50_MS ? 'met' : 'NOT met'}); the bare forwarder adds ${ms(med((r) => r.forwarder.p50 - r.direct.p50))} ms.`,
    `- throughput through the proxy / direct at concurrency ${CONCURRENCY}: **${ratio.toFixed(2)}x** (goal at least ${GOAL_THROUGHPUT}x: ${ratio >= GOAL_THROUGHPUT ? 'met' : 'NOT met'}); through the bare forwarder / direct: ${med((r) => r.forwarder.rps / r.direct.rps).toFixed(2)}x; proxy / bare forwarder: ${med((r) => r.proxy.rps / r.forwarder.rps).toFixed(2)}x.`,
    `- CPU per exchange, proxy / bare forwarder: **${cpuRatio.toFixed(2)}x** (median of each round's ratio, the two measured side by side; goal at most ${GOAL_CPU_RATIO}x: ${cpuRatio <= GOAL_CPU_RATIO ? 'met' : 'NOT met'}); rounds: ${rounds.map((r) => (r.proxy.hopCpu / r.forwarder.hopCpu).toFixed(2)).join(', ')}.`,
    `- CPU per request (median): sandbox ${us(med((r) => r.direct.sandboxCpu))} µs, proxy ${us(med((r) => r.proxy.hopCpu))} µs, bare forwarder ${us(med((r) => r.forwarder.hopCpu))} µs. When every process shares the same cores, throughput follows the sum of the CPU each request needs in all of them, so any Node.js hop in front of a server as light as the sandbox costs throughput; the forwarder row shows how much of the proxy's cost is the hop itself and how much is checking.`,
    `- Knobs: GW_BENCH_REQUESTS (one-at-a-time requests per side over all rounds, default 3000), GW_BENCH_SECONDS (per side and round at c=${CONCURRENCY}, default 3), GW_BENCH_ROUNDS (default 5).`,
  ];
  writeResultsSection('proxy', lines.join('\n'));
  console.log(lines.join('\n'));
}

if (process.argv[2] === 'proxy-server') {
  // The proxy as `gw proxy` runs it: checking every exchange and verifying answers' signatures.
  const proxy = await startProxy({ upstream: process.argv[3]!, verifier: signer });
  console.log(`PORT ${proxy.port}`);
  process.on('SIGTERM', () => void proxy.stop().then(() => process.exit(0)));
} else if (process.argv[2] === 'forwarder') {
  startForwarder(new URL(process.argv[3]!));
} else {
  await bench();
}
