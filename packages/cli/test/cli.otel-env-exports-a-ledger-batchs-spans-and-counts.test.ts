// `gw batch capture --ledger` with OTEL_* pointing at an OTLP/HTTP receiver (JSON): the batch's own spans arrive with
// the client's under them (run, chunk, send, the CLIENT span of each request), its order counter matches its result,
// and neither the ledger URL's password nor the signer's secret is in anything that arrived. Runs the built bin/gw.js.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { operations } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { startOtlpReceiver } from './otlp-receiver.ts';
import { authorisedOrdersFile, sandboxAndLedgerForFile, type SandboxAndLedger } from './sandbox-harness.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'gw.js');
const PASSWORD = 'ledger-pw-9c41e7';
const CLIENT = 3; // OTLP's SpanKind CLIENT

let parts: SandboxAndLedger;
sandboxAndLedgerForFile('otel_ledger_batch', (started) => {
  parts = started;
});

/** `node bin/gw.js <args>` in `cwd` with `env` added (inherited OTEL_* removed). */
function gw(args: string[], env: Record<string, string>, cwd: string): Promise<{ status: number | null; out: string; err: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, out, err })));
}

describe('gw batch capture on a ledger, with OTEL_* set', () => {
  it('exports the run, its chunks, their sends and the client span of each request as one tree, and the orders counted by outcome', async () => {
    const { sandbox, ledger } = parts;
    await using receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-ledger-'));
    await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 160, { prefix: 'OTL', amount: '2.00' });
    // Trust authentication takes any password: the URL carries one, as a real ledger's would, and it must not arrive.
    const url = new URL(ledger);
    url.password = PASSWORD;
    const before = sandbox.state.requests.filter((r) => r.path === operations.capture.path).length;
    const run = await gw(
      [
        'batch',
        'capture',
        'orders.csv',
        '--ledger',
        url.href,
        '--batch',
        'otel-1',
        '--base-url',
        sandbox.url,
        '--sandbox-defaults',
        '--reconcile',
        'sandbox',
        '--concurrency',
        '2',
      ],
      receiver.env,
      dir,
    );
    expect(run.status, run.err).toBe(EXIT_CODES.ok);
    const sent = sandbox.state.requests.filter((r) => r.path === operations.capture.path).length - before;

    const spans = receiver.spans();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const runs = spans.filter((s) => s.scope === '@gw/batch' && s.name === 'gw.batch capture');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.attributes).toMatchObject({ 'gw.operation': 'capture', 'gw.batch.store': 'ledger' });
    const clients = spans.filter((s) => s.scope === '@gw/client' && s.name === `POST ${operations.capture.path}`);
    expect(clients).toHaveLength(sent);
    for (const client of clients) {
      expect(client.kind).toBe(CLIENT);
      // CLIENT under gw.batch.send under gw.batch.chunk under the run, in one trace.
      const send = byId.get(client.parentSpanId!);
      const chunk = byId.get(send?.parentSpanId ?? '');
      expect([send?.name, chunk?.name, chunk?.parentSpanId]).toEqual(['gw.batch.send', 'gw.batch.chunk', runs[0]!.spanId]);
      expect(client.traceId).toBe(runs[0]!.traceId);
    }

    const orders = receiver.lastSumPoints().filter((p) => p.metric === 'gw.batch.orders');
    expect(orders.reduce((sum, p) => sum + p.value, 0)).toBe(160);
    expect(orders.find((p) => p.attributes['gw.outcome'] === 'succeeded')?.value).toBe(160);

    const everything = receiver.everything();
    for (const secret of [PASSWORD, SANDBOX_DEFAULT_SECRET]) expect(everything, secret).not.toContain(secret);
  });
});
