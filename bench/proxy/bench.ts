// gw proxy's cost: POST /v1/capture sent straight to a sandbox and through `startProxy` in front of the same sandbox,
// in one run, interleaved rounds: p50 latency at concurrency 1 (the proxy's added latency) and requests/s at
// concurrency 32. Sandbox and proxy each run in their own process (this file, started with `proxy-server`).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startProxy } from '@gw/proxy';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { Agent, request } from 'undici';
import { median } from '../median.ts';
import { writeResultsSection } from '../results.ts';

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });

const SERIAL_REQUESTS = Number(process.env.GW_BENCH_REQUESTS ?? 3000);
const PARALLEL_SECONDS = Number(process.env.GW_BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.GW_BENCH_ROUNDS ?? 5);
const CONCURRENCY = 32;
const GOAL_ADDED_P50_MS = 1;
const GOAL_THROUGHPUT = 0.7;

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
  const record = { merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId, account_id: SANDBOX_DEFAULT_MERCHANT.accountId, capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }] };
  const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: encodeRequestBody('capture', record) }));
  return encodeRequestBody('capture', { ...record, encryption_data });
}

/** One side: a keep-alive agent to a base address and a call sending the signed capture. */
function side(url: string, body: string): () => Promise<void> {
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

/** Requests per second with CONCURRENCY calls in flight for `seconds`. */
async function throughput(call: () => Promise<void>, seconds: number): Promise<number> {
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
  return done / ((performance.now() - t0) / 1000);
}

async function bench(): Promise<void> {
  const sandbox = await startChild([join(import.meta.dirname, '../client/sandbox-server.ts')]);
  const proxy = await startChild([join(import.meta.dirname, 'bench.ts'), 'proxy-server', sandbox.url]);
  try {
    const body = captureBody();
    const sides = { direct: side(sandbox.url, body), proxy: side(proxy.url, body) };
    for (const call of Object.values(sides)) {
      await serialP50(call, 500); // warm-up, both sides
      await throughput(call, 1);
    }
    const rounds: { direct: { p50: number; rps: number }; proxy: { p50: number; rps: number } }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, and which side goes first alternates: drift of a shared machine hits both alike.
      const order = round % 2 === 0 ? (['direct', 'proxy'] as const) : (['proxy', 'direct'] as const);
      const row = { direct: { p50: 0, rps: 0 }, proxy: { p50: 0, rps: 0 } };
      for (const name of order) row[name].p50 = await serialP50(sides[name], SERIAL_REQUESTS / ROUNDS);
      for (const name of order) row[name].rps = await throughput(sides[name], PARALLEL_SECONDS);
      rounds.push(row);
      console.log(`round ${round + 1}`, JSON.stringify(row));
    }
    report(rounds);
  } finally {
    proxy.child.kill('SIGTERM');
    sandbox.child.kill('SIGTERM');
  }
}

function report(rounds: readonly { direct: { p50: number; rps: number }; proxy: { p50: number; rps: number } }[]): void {
  const added = median(rounds.map((r) => r.proxy.p50 - r.direct.p50));
  const ratio = median(rounds.map((r) => r.proxy.rps / r.direct.rps));
  const ms = (v: number) => v.toFixed(3);
  const lines = [
    `POST /v1/capture (one order, signed), straight to @gw/sandbox and through \`startProxy\` (checking every exchange, verifying answer signatures) in front of the same sandbox; sandbox, proxy and this load generator each in their own process, undici 8 keep-alive agents; ${ROUNDS} interleaved rounds (the side going first alternates) after a warm-up, each round ${SERIAL_REQUESTS / ROUNDS} requests one at a time, then ${PARALLEL_SECONDS} s with ${CONCURRENCY} in flight; node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Figures: median over rounds of each round's value or ratio.`,
    '',
    '| round | direct p50 ms (c=1) | proxy p50 ms (c=1) | added ms | direct requests/s (c=32) | proxy requests/s (c=32) | proxy / direct |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rounds.map((r, i) => `| ${i + 1} | ${ms(r.direct.p50)} | ${ms(r.proxy.p50)} | ${ms(r.proxy.p50 - r.direct.p50)} | ${Math.round(r.direct.rps)} | ${Math.round(r.proxy.rps)} | ${(r.proxy.rps / r.direct.rps).toFixed(2)}x |`),
    '',
    `- p50 latency the proxy adds at concurrency 1: **${ms(added)} ms** (goal at most ${GOAL_ADDED_P50_MS} ms: ${added <= GOAL_ADDED_P50_MS ? 'met' : 'NOT met'}).`,
    `- throughput through the proxy / direct at concurrency ${CONCURRENCY}: **${ratio.toFixed(2)}x** (goal at least ${GOAL_THROUGHPUT}x: ${ratio >= GOAL_THROUGHPUT ? 'met' : 'NOT met'}). On 2 cores the proxy's process competes with the sandbox and the load generator for CPU, so this is a floor of what a proxy on its own core gives.`,
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
} else {
  await bench();
}
