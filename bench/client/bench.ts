// Round trip of POST /v1/capture: @gw/client (fill, validate, sign, encode, send, decode, verify) vs raw
// `undici.request` with a pre-built, pre-signed body, against the same sandbox in a child process, in one run.
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { Agent, request, type Dispatcher } from 'undici';
import { writeResultsSection } from '../results.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';

const REQUESTS = Number(process.env.GW_BENCH_REQUESTS ?? 4000);
const ROUNDS = 3;
const CONCURRENCIES = [1, 32] as const;
// A guard against regressions, not a target: worst p50 at most 1.3x raw undici at concurrency 1 and 32.
const GOAL_P50 = 1.3;

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const capture = { capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }] };

async function startServer(): Promise<{ port: number; stop: () => void }> {
  const { child, port } = await startSandboxProcess();
  return { port, stop: () => child.kill('SIGTERM') };
}

const CPU_CALLS = 20_000;

/** CPU per client call without a network: a stub undici dispatcher answers every request at once with a signed capture answer. */
async function clientCpuBreakdown(): Promise<{ full: number; noVerify: number; noSigning: number }> {
  const unsigned = {
    merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
    account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
    return_status: '1',
    return_message: 'OK',
    capture_orders: [{ ...capture.capture_orders[0]!, capture_status: '1', error_message: '' }],
  };
  const answer = Buffer.from(
    JSON.stringify({
      ...unsigned,
      encryption_data: signer.sign(createSignableMessage({ operation: 'capture', record: unsigned, body: JSON.stringify(unsigned) })),
    }),
  );
  const controller = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, reason: null };
  const stub = {
    dispatch(
      _options: unknown,
      handler: Required<Pick<Dispatcher.DispatchHandler, 'onRequestStart' | 'onResponseStart' | 'onResponseData' | 'onResponseEnd'>>,
    ) {
      queueMicrotask(() => {
        handler.onRequestStart(controller, {});
        handler.onResponseStart(controller, 200, {}, 'OK');
        handler.onResponseData(controller, answer);
        handler.onResponseEnd(controller, {});
      });
      return true;
    },
    close: async () => undefined,
  } as unknown as Dispatcher;
  const base = {
    baseUrl: 'http://127.0.0.1:1',
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    transport: { dispatcher: stub },
  };
  const perCall = async (options: Partial<Parameters<typeof createClient>[0]>): Promise<number> => {
    const stubbed = createClient({ ...base, signer, ...options });
    for (let i = 0; i < 3_000; i++) await stubbed.capture(capture);
    const t0 = performance.now();
    for (let i = 0; i < CPU_CALLS; i++) await stubbed.capture(capture);
    return ((performance.now() - t0) / CPU_CALLS) * 1000;
  };
  return {
    full: await perCall({}),
    noVerify: await perCall({ verifyResponses: false }),
    noSigning: await perCall({ verifyResponses: false, signer: { sign: () => 'f'.repeat(64) } }),
  };
}

/** Runs `total` calls with `concurrency` in flight and returns each call's latency in ms. */
async function measure(call: () => Promise<unknown>, total: number, concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      const t0 = performance.now();
      await call();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const server = await startServer();
const baseUrl = `http://127.0.0.1:${server.port}`;
try {
  const record = { merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId, account_id: SANDBOX_DEFAULT_MERCHANT.accountId, ...capture };
  const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: encodeRequestBody('capture', record) }));
  const body = encodeRequestBody('capture', { ...record, encryption_data });
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  const raw = async () => {
    const response = await request(`${baseUrl}/v1/capture`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`raw: HTTP ${response.statusCode} ${text}`);
  };
  const client = createClient({ baseUrl, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer });
  const viaClient = () => client.capture(capture);
  // The same client without response verification: how much of the gap the signature check takes.
  const unverified = createClient({
    baseUrl,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifyResponses: false,
  });
  const viaUnverified = () => unverified.capture(capture);

  const results: Record<string, { raw: number[]; client: number[]; unverified: number[] }> = {};
  for (const concurrency of CONCURRENCIES) {
    await measure(raw, 1000, concurrency); // warm-up, every side
    await measure(viaClient, 1000, concurrency);
    await measure(viaUnverified, 1000, concurrency);
    const row = { raw: [] as number[], client: [] as number[], unverified: [] as number[] };
    // Interleaved rounds, so drift of the machine hits every side alike.
    for (let round = 0; round < ROUNDS; round++) {
      row.raw.push(...(await measure(raw, REQUESTS / ROUNDS, concurrency)));
      row.client.push(...(await measure(viaClient, REQUESTS / ROUNDS, concurrency)));
      row.unverified.push(...(await measure(viaUnverified, REQUESTS / ROUNDS, concurrency)));
    }
    for (const latencies of Object.values(row)) latencies.sort((a, b) => a - b);
    results[concurrency] = row;
  }
  await client.close();
  await unverified.close();
  await agent.close();

  const ms = (value: number) => value.toFixed(3);
  const lines = [
    `POST /v1/capture (one order), ${REQUESTS} requests per side and concurrency in ${ROUNDS} interleaved rounds after 1000 warm-up calls each; sandbox in a child process, every side in the bench process on its own keep-alive undici 8 Agent; node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '- **raw**: `undici.request` with a body built and signed once before the run; reads the body as text.',
    '- **@gw/client**: `client.capture(record)`: fills the merchant, validates (ajv), signs (reference HMAC-SHA256), encodes, sends it to the path and with the Content-Type of the generated operation table (no SDK runtime) through undici, decodes the JSON, verifies the response signature.',
    '- **client, unverified**: the same with `verifyResponses: false`, to show what the response signature check costs.',
    '',
    '| concurrency | raw p50 ms | client p50 ms | p50 ratio | raw p99 ms | client p99 ms | p99 ratio | unverified p50 ratio |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const ratios: number[] = [];
  const cpu = await clientCpuBreakdown();
  for (const concurrency of CONCURRENCIES) {
    const { raw: r, client: c, unverified: u } = results[concurrency]!;
    const p50 = percentile(c, 50) / percentile(r, 50);
    ratios.push(p50);
    lines.push(
      `| ${concurrency} | ${ms(percentile(r, 50))} | ${ms(percentile(c, 50))} | **${p50.toFixed(2)}x** | ${ms(percentile(r, 99))} | ${ms(percentile(c, 99))} | ${(percentile(c, 99) / percentile(r, 99)).toFixed(2)}x | ${(percentile(u, 50) / percentile(r, 50)).toFixed(2)}x |`,
    );
  }
  const worst = Math.max(...ratios);
  lines.push(
    '',
    `- Goal: client p50 at most ${GOAL_P50}x raw undici; worst p50 ratio this run: **${worst.toFixed(2)}x** (${worst <= GOAL_P50 ? 'met' : 'NOT met'}).`,
  );
  lines.push(
    `- Where the client's time goes: CPU per call in this process with a stub dispatcher that answers at once (${CPU_CALLS} calls each, hot loop): ` +
      `whole call ${cpu.full.toFixed(1)} µs; without response verification ${cpu.noVerify.toFixed(1)} µs; also with a signer that returns a constant ${cpu.noSigning.toFixed(1)} µs ` +
      `(validation, encoding, decoding, timer, dispatch). Signing and verifying with the reference HMAC signer are ` +
      `${(cpu.noVerify - cpu.noSigning).toFixed(1)} and ${(cpu.full - cpu.noVerify).toFixed(1)} µs of it.`,
  );
  writeResultsSection('client', lines.join('\n'));
  console.log(lines.join('\n'));
} finally {
  server.stop();
}
