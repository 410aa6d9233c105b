// OpenTelemetry's cost where users feel it (issue 38), in one run, sides interleaved:
// - `gw batch capture` (the built CLI, a process per run, as a team runs it; `pnpm build` first) against the sandbox
//   with captures 20 ms away: telemetry off (no OTEL_*) and on (OTEL_* exporting traces and metrics over OTLP/HTTP
//   JSON to a receiver in this process, which a collector would be);
// - the client's p50 on loopback with `@opentelemetry/api` installed and no SDK registered (the default: one check per
//   try) against `telemetry: false` (no check at all).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { authoriseOrders, ordersCsv, type AuthorisingClient } from '@gw/test-support';
import { median, writeResultsSection } from '../results.ts';
import { setCaptureLatency, startSandboxProcess } from '../sandbox/sandbox-process.ts';

const ORDERS = Number(process.env.GW_BENCH_ORDERS ?? 50_000);
const ROUNDS = Number(process.env.GW_BENCH_ROUNDS ?? 4);
const LATENCY_MS = 20;
const CONCURRENCY = 8;
const CALLS = Number(process.env.GW_BENCH_REQUESTS ?? 3_000);
const GOAL_BATCH = 1.03;
const GOAL_P50 = 1.02;
const BIN = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'bin', 'gw.js');
if (!existsSync(join(import.meta.dirname, '..', '..', 'packages', 'cli', 'dist', 'bundle', 'gw.js')))
  throw new Error('bench telemetry runs the built CLI: run pnpm build first');

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const sandbox = await startSandboxProcess();
const clientOptions = {
  baseUrl: sandbox.url,
  merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
  accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
  signer,
  verifier: signer,
};
const setup = createClient(clientOptions) as unknown as AuthorisingClient;

/** An OTLP/HTTP receiver that takes what arrives and answers 200, counting the bytes: what a collector costs the sender. */
async function startReceiver(): Promise<{ url: string; bytes: () => number; close: () => void }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes, close: () => server.close() };
}

/** One `gw batch capture` of `orders` captures, its wall time in ms (process start to exit). */
async function batchRun(env: Record<string, string>, tag: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), `gw-bench-otel-${tag}-`));
  writeFileSync(join(dir, 'orders.csv'), ordersCsv(await authoriseOrders(setup, ORDERS, { prefix: `OT${tag}` })));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const args = [
    BIN,
    'batch',
    'capture',
    'orders.csv',
    '--journal',
    'captures.jsonl',
    '--base-url',
    sandbox.url,
    '--sandbox-defaults',
    '--concurrency',
    String(CONCURRENCY),
  ];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...inherited, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`gw batch exited ${code}: ${err}`);
  return performance.now() - t0;
}

/** Median wall time in ms of `gw batch --help` (start-up and exit, no batch) with `env`, over `runs` runs. */
async function helpTime(env: Record<string, string>, runs = 7): Promise<number> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'batch', '--help'], { env: { ...inherited, ...env }, stdio: 'ignore' });
    await new Promise((resolve) => child.on('close', resolve));
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** p50 in ms of `CALLS / ROUNDS` captures one after another through `client`. */
async function serialP50(client: ReturnType<typeof createClient>, orders: Awaited<ReturnType<typeof authoriseOrders>>): Promise<number> {
  const times: number[] = [];
  for (const order of orders) {
    const t0 = performance.now();
    await client.capture({ capture_orders: [order] });
    times.push(performance.now() - t0);
  }
  return median(times);
}

const receiver = await startReceiver();
const otel = {
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_METRICS_EXPORTER: 'otlp',
  OTEL_LOGS_EXPORTER: 'none',
};
const sides = { off: {}, on: otel } as const;
try {
  await setCaptureLatency(sandbox.url, LATENCY_MS);
  for (const [side, env] of Object.entries(sides)) await batchRun(env, `warm-${side}`);
  const batch: { off: number; on: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const row = { off: 0, on: 0 };
    for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) row[side] = await batchRun(sides[side], `${round}-${side}`);
    batch.push(row);
    console.log(`batch round ${round + 1}`, JSON.stringify(row));
  }
  const exported = receiver.bytes();
  const startUp = { off: await helpTime(sides.off), on: await helpTime(sides.on) };

  await setCaptureLatency(sandbox.url, 0);
  const clients = { off: createClient({ ...clientOptions, telemetry: false }), on: createClient(clientOptions) };
  for (const side of ['off', 'on'] as const) await serialP50(clients[side], await authoriseOrders(setup, 300, { prefix: `OTW${side}` })); // warm-up
  const p50: { off: number; on: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const row = { off: 0, on: 0 };
    for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const))
      row[side] = await serialP50(clients[side], await authoriseOrders(setup, Math.ceil(CALLS / ROUNDS), { prefix: `OTC${round}${side}` }));
    p50.push(row);
    console.log(`client round ${round + 1}`, JSON.stringify(row));
  }

  const batchRatio = median(batch.map((r) => r.on / r.off));
  const p50Ratio = median(p50.map((r) => r.on / r.off));
  const met = (ratio: number, goal: number) => (ratio <= goal ? 'met' : 'NOT met');
  writeResultsSection(
    'telemetry',
    [
      `OpenTelemetry's cost (issue 38), sides interleaved in one run; node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
      '',
      `- \`gw batch capture\` of ${ORDERS.toLocaleString('en')} orders (the built CLI, a process per run, journal, concurrency ${CONCURRENCY}) against the sandbox in its own process with captures ${LATENCY_MS} ms away: with OTEL_* exporting traces and metrics over OTLP/HTTP JSON to a local receiver (${(exported / 1024 / ROUNDS).toFixed(0)} KiB a run), **${batchRatio.toFixed(3)}x** the time without (median of ${ROUNDS} paired rounds; goal at most ${GOAL_BATCH}x: ${met(batchRatio, GOAL_BATCH)}); rounds: ${batch.map((r) => `${r.off.toFixed(0)} / ${r.on.toFixed(0)} ms`).join(', ')}. The time is the whole process's, start-up (the SDK's loading included) to exit (its last export included). Of it, the SDK's start and stop are a fixed ${(startUp.on - startUp.off).toFixed(0)} ms (\`gw batch --help\`: ${startUp.off.toFixed(0)} ms without, ${startUp.on.toFixed(0)} ms with OTEL_*): a batch of a few thousand orders, over in a second, pays it as several percent; one of tens of thousands, as this one, hardly.`,
      `- The client's p50 for a capture on loopback (no latency), \`@opentelemetry/api\` installed and no SDK registered (the default: one check per try), over \`telemetry: false\`: **${p50Ratio.toFixed(3)}x** (median of ${ROUNDS} paired rounds of ${Math.ceil(CALLS / ROUNDS)} calls; goal at most ${GOAL_P50}x: ${met(p50Ratio, GOAL_P50)}); rounds: ${p50.map((r) => `${r.off.toFixed(3)} / ${r.on.toFixed(3)} ms`).join(', ')}.`,
      `- Knobs: GW_BENCH_ORDERS (default 50000), GW_BENCH_ROUNDS (default 4), GW_BENCH_REQUESTS (client calls over all rounds, default 3000).`,
    ].join('\n'),
  );
  console.log(`batch ${batchRatio.toFixed(3)}x, client p50 ${p50Ratio.toFixed(3)}x`);
} finally {
  receiver.close();
  sandbox.child.kill('SIGTERM');
}
