// A capture batch on a journal with the OpenTelemetry SDK registered: one INTERNAL span for the run, one per chunk
// under it with its send, settle and reconcile, the client's spans under the send and the reconcile, the store's steps
// under the run; the orders counted by outcome as the result counts them, none left in flight; and not one card
// number, security code or expiry of the input anywhere in what was exported.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchInterruptedError, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { childrenOf, clientWithStandInSpans, counted, named, parentOf, points, STAND_IN } from './telemetry/telemetry-helpers.ts';

let sandbox: Sandbox;
let telemetry: TelemetryCapture;
beforeAll(async () => {
  sandbox = await startSandbox();
  telemetry = captureTelemetry();
});
afterAll(async () => {
  await telemetry.stop();
  await sandbox.stop();
});

/** An input order carrying card data (refused at intake): values found nowhere else. */
const CARD_ORDER = {
  order_no: 'CARD-IN-INPUT',
  currency: 'USD',
  amount: '1.00',
  card: '4000056655665556',
  security_code: '7391',
  expiration_month: '07',
  expiration_year: '2037',
};

describe('a capture batch on a journal, traced', () => {
  it('gives a run span, a chunk span per request with its send, settle and reconcile, the client under them, and counts matching the result', async () => {
    const orders = await authorisedOrders(sandbox, 120);
    // Every capture is applied and its connection reset: each chunk's orders are in doubt and settled by a query.
    sandbox.faults.setRules({ '/v1/capture': { resetAfter: 1 } });
    telemetry.reset();
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-otel-j-')), 'j.jsonl');
    const result = await runBatch({
      client: clientWithStandInSpans(clientFor(sandbox)),
      operation: 'capture',
      orders: [...orders, CARD_ORDER],
      concurrency: 2,
      journal,
      reconcile: sandboxReconciler,
    });
    sandbox.faults.setRules({});
    expect(result.counts).toEqual({ succeeded: 120, failed: 0, rejected: 1, unknown: 0 });

    const spans = telemetry.spans();
    const [run, ...others] = named(spans, 'gw.batch capture');
    expect(others).toEqual([]);
    expect(run!.kind).toBe(SpanKind.INTERNAL);
    expect(run!.instrumentationScope.name).toBe('@gw/batch');
    expect(run!.attributes).toMatchObject({
      'gw.operation': 'capture',
      'gw.batch.role': 'run',
      'gw.batch.store': 'journal',
      'gw.batch.journal': journal,
      'gw.batch.concurrency': 2,
      'gw.batch.succeeded': 120,
      'gw.batch.rejected': 1,
      'gw.batch.failed': 0,
      'gw.batch.unknown': 0,
      'gw.batch.throttles': 0,
      'gw.batch.chunks': 3,
    });
    expect(typeof run!.attributes['gw.batch.holder']).toBe('string');

    const chunks = named(spans, 'gw.batch.chunk');
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => c.attributes['gw.orders']).sort()).toEqual([20, 50, 50]);
    for (const chunk of chunks) {
      expect(parentOf(spans, chunk)).toBe(run);
      expect(chunk.attributes).toMatchObject({
        'gw.operation': 'capture',
        'gw.batch.taken_over': false,
        'gw.batch.chunk.end': 'settled',
        'gw.batch.decided': chunk.attributes['gw.orders'],
      });
      const children = childrenOf(spans, chunk).map((s) => s.name);
      expect(children.sort()).toEqual(['gw.batch.reconcile', 'gw.batch.send', 'gw.batch.settle']);
      const [send] = childrenOf(spans, chunk).filter((s) => s.name === 'gw.batch.send');
      expect(send!.attributes).toMatchObject({
        'gw.orders': chunk.attributes['gw.orders'],
        'gw.batch.in_doubt': chunk.attributes['gw.orders'],
        'gw.batch.timed_out': false,
      });
      // The client's span of the capture comes out under the send; the query's under the reconcile.
      expect(childrenOf(spans, send!).map((s) => [s.name, s.kind, s.attributes[STAND_IN]])).toEqual([['POST /v1/capture', SpanKind.CLIENT, true]]);
      const [reconcile] = childrenOf(spans, chunk).filter((s) => s.name === 'gw.batch.reconcile');
      expect(reconcile!.attributes).toMatchObject({
        'gw.orders': chunk.attributes['gw.orders'],
        'gw.batch.settled': chunk.attributes['gw.orders'],
        'gw.batch.resend': 0,
      });
      expect(childrenOf(spans, reconcile!).map((s) => s.name)).toEqual(['POST /v1/retrievalTrans']);
    }
    const steps = named(spans, 'gw.batch.step');
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(parentOf(spans, step)).toBe(run);
    expect(steps.reduce((n, s) => n + (s.attributes['gw.batch.leased'] as number), 0)).toBe(3);

    const metrics = await telemetry.metrics();
    expect(counted(metrics, 'gw.batch.orders', { 'gw.operation': 'capture', 'gw.outcome': 'succeeded' })).toBe(120);
    expect(counted(metrics, 'gw.batch.orders', { 'gw.operation': 'capture', 'gw.outcome': 'rejected' })).toBe(1);
    expect(counted(metrics, 'gw.batch.reconcile.queries', { 'gw.operation': 'capture' })).toBe(3);
    expect(points(metrics, 'gw.batch.requests.in_flight').map((p) => p.value)).toEqual([0, 0]);
    expect(points(metrics, 'gw.batch.throttles')).toEqual([]);

    const exported = await telemetry.everything();
    for (const secret of [CARD_ORDER.card, '4111111111111111', `"${CARD_ORDER.security_code}"`, `"${CARD_ORDER.expiration_year}"`])
      expect(exported).not.toContain(secret);
  });

  it("a run stopped by its signal ends its span with an ERROR status and error.type, gw's error code, and not its message", async () => {
    const orders = await authorisedOrders(sandbox, 60);
    telemetry.reset();
    const stop = new AbortController();
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-otel-j-')), 'j.jsonl');
    const run = runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders,
      concurrency: 1,
      journal,
      reconcile: sandboxReconciler,
      signal: stop.signal,
      onOutcome: () => stop.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(BatchInterruptedError);
    const [span] = named(telemetry.spans(), 'gw.batch capture');
    expect(span!.status).toEqual({ code: 2, message: 'GW_INTERRUPTED' });
    expect(span!.attributes['error.type']).toBe('GW_INTERRUPTED');
    expect(await telemetry.everything()).not.toContain('resumeBatch');
  });
});
