// With the standard OTEL_* variables pointing at an OTLP/HTTP receiver (JSON), the installed `gw` (bin/gw.js, the
// bundle: `pnpm build` first) starts the OpenTelemetry SDK and, at its end, has exported the client's spans and the
// duration histogram: after a card payment, after a batch, and after a batch stopped by Ctrl-C. No card number, CVV,
// expiry or signer secret arrives, though the secret is on gw's command line. Without OTEL_* no SDK is loaded.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_MERCHANT, startSandbox, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { operations } from '@gw/types';
import { orderNo } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { startOtlpReceiver } from './otlp-receiver.ts';
import { authorisedOrdersFile, sandboxClient } from './sandbox-harness.ts';

const PACKAGE = join(import.meta.dirname, '..');
const BIN = join(PACKAGE, 'bin', 'gw.js');
// A secret of this test's own, set on the sandbox's merchant: it must not arrive, though it is an argument of gw.
const SECRET = 'otel-e2e-signer-secret-5f1c2a';
const CLIENT = 3; // OTLP's SpanKind CLIENT

const signer = createHmacSha256Signer({ secret: SECRET });
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ signer, verifier: signer });
});
afterAll(() => sandbox.stop());

/** `node bin/gw.js <args>` with `env` added (and every inherited OTEL_* removed); `until` tells when to send Ctrl-C. */
function gw(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; until?: () => boolean; onOut?: (chunk: string) => void } = {},
): Promise<{ status: number | null; signal: string | null; out: string; err: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? PACKAGE, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => ((out += c), options.onOut?.(String(c))));
  child.stderr.on('data', (c) => (err += c));
  const watch = options.until ? setInterval(() => options.until!() && (clearInterval(watch!), child.kill('SIGINT')), 5) : null;
  return new Promise((resolve) => child.on('close', (status, signal) => (clearInterval(watch!), resolve({ status, signal, out, err }))));
}

const captures = () => sandbox.state.requests.filter((r) => r.path === operations.capture.path).length;

const gateway = () => [
  '--base-url',
  sandbox.url,
  '--merchant-id',
  SANDBOX_DEFAULT_MERCHANT.merchantId,
  '--account-id',
  SANDBOX_DEFAULT_MERCHANT.accountId,
  '--secret',
  SECRET,
];

/** Writes `count` orders authorised on the sandbox as an orders file in `dir`. */
function ordersFile(dir: string, count: number, prefix: string) {
  return authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), count, {
    prefix,
    amount: '3.00',
    client: sandboxClient(sandbox, { signer, verifier: signer }),
  });
}

describe('gw with OTEL_* set exports over OTLP/HTTP JSON', () => {
  it('gw call authoriseCard: the client span (name, kind, attributes, service.name gw) and its duration point; no card data or secret', async () => {
    await using receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-call-'));
    const payment = {
      order_no: orderNo(),
      currency: 'USD',
      amount: '12.00',
      card: '4000056655665556',
      expiration_month: '07',
      expiration_year: '2034',
      security_code: '9371',
    };
    writeFileSync(join(dir, 'payment.json'), JSON.stringify(payment));
    const run = await gw(['call', 'authoriseCard', '--data', join(dir, 'payment.json'), ...gateway()], receiver.env);
    expect(run.status, run.err).toBe(EXIT_CODES.ok);
    expect(JSON.parse(run.out)).toMatchObject({ order_status: '1' });

    const path = operations.authoriseCard.path;
    const spans = receiver.spans().filter((s) => s.scope === '@gw/client');
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span).toMatchObject({ name: `POST ${path}`, kind: CLIENT });
    expect(span!.resource['service.name']).toBe('gw');
    expect(span!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': sandbox.port,
      'url.full': `${sandbox.url}${path}`,
      'url.template': path,
      'http.response.status_code': 200,
      'gw.operation': 'authoriseCard',
      'gw.outcome': 'applied',
    });

    const [point, ...more] = receiver.histogramPoints().filter((p) => p.metric === 'http.client.request.duration');
    expect(more).toEqual([]);
    expect(point).toMatchObject({
      unit: 's',
      scope: '@gw/client',
      count: 1,
      attributes: { 'gw.operation': 'authoriseCard', 'url.template': path, 'http.response.status_code': 200 },
    });
    expect(point!.explicitBounds).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);

    const everything = receiver.everything();
    expect(everything).not.toContain(payment.card);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toMatch(new RegExp(`"${payment.security_code}"|"${payment.expiration_year}"|"${payment.expiration_month}"`));
  });

  it('gw batch capture with a journal: a client span per capture request arrives, each with gw.orders', async () => {
    await using receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-batch-'));
    await ordersFile(dir, 120, 'OTB');
    const before = captures();
    const run = await gw(['batch', 'capture', 'orders.csv', '--journal', 'captures.jsonl', ...gateway()], receiver.env, { cwd: dir });
    expect(run.status, run.err).toBe(EXIT_CODES.ok);
    const sent = captures() - before;
    const spans = receiver.spans().filter((s) => s.scope === '@gw/client' && s.name === `POST ${operations.capture.path}`);
    expect(spans).toHaveLength(sent);
    expect(spans.reduce((sum, s) => sum + Number(s.attributes['gw.orders']), 0)).toBe(120);
    expect(spans.every((s) => s.kind === CLIENT && s.attributes['gw.outcome'] === 'applied')).toBe(true);
    const points = receiver.histogramPoints().filter((p) => p.metric === 'http.client.request.duration' && p.attributes['gw.operation'] === 'capture');
    expect(points.reduce((sum, p) => sum + p.count, 0)).toBe(sent);
    expect(receiver.everything()).not.toContain(SECRET);
  });

  it('Ctrl-C mid-batch: gw stops as resumable (130) and what it sent before stopping still arrives, metrics included', async () => {
    await using receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-sigint-'));
    await ordersFile(dir, 400, 'OTS');
    const journal = join(dir, 'captures.jsonl');
    sandbox.faults.setRules({ [operations.capture.path]: { latencyMs: 100 } });
    const before = captures();
    let run;
    try {
      const committed = () => existsSync(journal) && (readFileSync(journal, 'utf8').match(/"type":"outcomes"/g)?.length ?? 0) >= 2;
      run = await gw(['batch', 'capture', 'orders.csv', '--journal', 'captures.jsonl', '--concurrency', '1', ...gateway()], receiver.env, {
        cwd: dir,
        until: committed,
      });
    } finally {
      sandbox.faults.setRules({});
    }
    expect(run.status, run.err).toBe(EXIT_CODES.interrupted);
    const sent = captures() - before;
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(sent).toBeLessThan(8); // stopped part way: 400 orders are 8 requests
    const spans = receiver.spans().filter((s) => s.scope === '@gw/client' && s.name === `POST ${operations.capture.path}`);
    expect(spans).toHaveLength(sent);
    const points = receiver.histogramPoints().filter((p) => p.metric === 'http.client.request.duration' && p.attributes['gw.operation'] === 'capture');
    expect(points.reduce((sum, p) => sum + p.count, 0)).toBe(sent);
  });

  it('Ctrl-C during gw call (no handler of its own): gw still dies of SIGINT at once, as without telemetry', async () => {
    await using receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-call-sigint-'));
    writeFileSync(join(dir, 'query.json'), JSON.stringify({ order_no: ['X'] }));
    sandbox.faults.setRules({ [operations.query.path]: { latencyMs: 5_000 } });
    const started = Date.now();
    let run;
    try {
      // A second in: the SDK is started and the query waits on the gateway's 5 s.
      run = await gw(['call', 'query', '--data', join(dir, 'query.json'), ...gateway()], receiver.env, { until: () => Date.now() - started > 1_000 });
    } finally {
      sandbox.faults.setRules({});
    }
    expect(run.signal).toBe('SIGINT');
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('gw sandbox with OTEL_* set: Ctrl-C stops it cleanly (exit 0, its closing line said) and the span of the request it served arrives', async () => {
    await using receiver = await startOtlpReceiver();
    let out = '';
    let served = false;
    const serve = (chunk: string) => {
      out += chunk;
      const url = /listening on (http:\S+)/.exec(out)?.[1];
      if (!url || served) return;
      served = true;
      void fetch(`${url}${operations.query.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'order_no=X',
      }).then((answer) => answer.text().then(() => (answered = true)));
    };
    let answered = false;
    const run = await gw(['sandbox', '--port', '0'], receiver.env, { until: () => answered, onOut: serve });
    expect(run.status, run.err).toBe(0);
    expect(run.out).toMatch(/gw sandbox stopped after 1 requests/);
    const spans = receiver.spans().filter((s) => s.scope === '@gw/sandbox');
    expect(spans.map((s) => s.name)).toEqual([`POST ${operations.query.path}`]);
    expect(spans[0]!.resource['service.name']).toBe('gw');
  });

  it('without OTEL_* (or with OTEL_SDK_DISABLED=true) nothing arrives and the SDK is never loaded; with them it is', async () => {
    await using receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-off-'));
    const hook = join(dir, 'hook.mjs');
    const loaded = join(dir, 'loaded.txt');
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';\nimport { writeFileSync } from 'node:fs';\nconst seen = [];\nregisterHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });\nprocess.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, seen.join('\\n')));\n`,
    );
    const sdkFiles = async (env: Record<string, string>) => {
      const payment = {
        order_no: orderNo(),
        currency: 'USD',
        amount: '2.00',
        card: '4111111111111111',
        expiration_month: '12',
        expiration_year: '2030',
        security_code: '123',
      };
      writeFileSync(join(dir, 'payment.json'), JSON.stringify(payment));
      const run = await gw(['call', 'authoriseCard', '--data', join(dir, 'payment.json'), ...gateway()], { ...env, NODE_OPTIONS: `--import=${hook}` });
      expect(run.status, run.err).toBe(EXIT_CODES.ok);
      return readFileSync(loaded, 'utf8')
        .split('\n')
        .filter((url) => url.includes('@opentelemetry/sdk-'));
    };
    expect(await sdkFiles({})).toEqual([]);
    expect(await sdkFiles({ ...receiver.env, OTEL_SDK_DISABLED: 'true' })).toEqual([]);
    expect(receiver.bodies).toEqual([]);
    expect((await sdkFiles(receiver.env)).length).toBeGreaterThan(0);
    expect(receiver.spans().length).toBeGreaterThan(0);
  });
});
