// A capture batch on a PostgreSQL ledger with the OpenTelemetry SDK and @opentelemetry/instrumentation-pg registered:
// the run, chunk, send, settle and step spans as on a journal, the ledger's statements as pg spans under the batch's
// steps, each statement's time in gw.batch.ledger.statement.duration by statement, the orders counted as the result
// counts them, and no card number in what was exported.
import './telemetry/pg-instrumented.ts';
import { SpanKind, trace } from '@opentelemetry/api';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBatchId, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';
import { pgInstrumentation } from './telemetry/pg-instrumented.ts';
import { childrenOf, clientWithStandInSpans, counted, named, parentOf, points, STAND_IN } from './telemetry/telemetry-helpers.ts';

let sandbox: Sandbox;
let ledger: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledger = url;
});
let telemetry: TelemetryCapture;
beforeAll(() => {
  telemetry = captureTelemetry();
  pgInstrumentation.setTracerProvider(trace.getTracerProvider());
});
afterAll(async () => {
  pgInstrumentation.disable();
  await telemetry.stop();
});

describe('a capture batch on a ledger, traced', () => {
  it('gives the run, chunk, send, settle and step spans, the ledger statements as pg spans under the steps, and their times by statement', async () => {
    const orders = await authorisedOrders(sandbox, 120);
    telemetry.reset();
    const batch = newBatchId();
    const result = await runBatch({
      client: clientWithStandInSpans(clientFor(sandbox)),
      operation: 'capture',
      orders,
      concurrency: 2,
      ledger,
      batch,
      holder: 'w-otel',
      reconcile: sandboxReconciler,
    });
    expect(result.counts).toEqual({ succeeded: 120, failed: 0, rejected: 0, unknown: 0 });

    const spans = telemetry.spans();
    const [run, ...others] = named(spans, 'gw.batch capture');
    expect(others).toEqual([]);
    expect(run!.kind).toBe(SpanKind.INTERNAL);
    expect(run!.attributes).toMatchObject({
      'gw.operation': 'capture',
      'gw.batch.role': 'run',
      'gw.batch.store': 'ledger',
      'gw.batch.id': batch,
      'gw.batch.holder': 'w-otel',
      'gw.batch.concurrency': 2,
      'gw.batch.lease_ms': 60_000,
      'gw.batch.succeeded': 120,
      'gw.batch.throttles': 0,
      'gw.batch.chunks': 3,
      'gw.batch.taken_over': 0,
    });

    const chunks = named(spans, 'gw.batch.chunk');
    expect(chunks.map((c) => c.attributes['gw.orders']).sort()).toEqual([20, 50, 50]);
    for (const chunk of chunks) {
      expect(parentOf(spans, chunk)).toBe(run);
      expect(chunk.attributes['gw.batch.fence']).toEqual(expect.any(Number));
      const children = childrenOf(spans, chunk).filter((s) => s.instrumentationScope.name === '@gw/batch');
      expect(children.map((s) => s.name).sort()).toEqual(['gw.batch.send', 'gw.batch.settle']);
      const send = children.find((s) => s.name === 'gw.batch.send')!;
      expect(send.attributes).toMatchObject({ 'gw.batch.decided': chunk.attributes['gw.orders'], 'gw.batch.in_doubt': 0 });
      expect(childrenOf(spans, send).map((s) => [s.name, s.kind, s.attributes[STAND_IN]])).toEqual([['POST /v1/capture', SpanKind.CLIENT, true]]);
    }

    // Every step is under the run, and its statement is a pg span under the step.
    const steps = named(spans, 'gw.batch.step');
    expect(steps.length).toBeGreaterThan(0);
    const pgSpans = spans.filter((s) => s.instrumentationScope.name === '@opentelemetry/instrumentation-pg');
    for (const step of steps) {
      expect(parentOf(spans, step)).toBe(run);
      const statements = pgSpans.filter((s) => parentOf(spans, s) === step && s.kind === SpanKind.CLIENT && s.name !== 'pg-pool.connect');
      expect(statements.length, 'a pg span under each step').toBeGreaterThan(0);
    }
    // Statements made outside a span (the ledger opened, the batch created, before the run) make none: every pg span is the run's.
    expect(pgSpans.every((s) => s.spanContext().traceId === run!.spanContext().traceId)).toBe(true);

    const metrics = await telemetry.metrics();
    expect(counted(metrics, 'gw.batch.orders', { 'gw.operation': 'capture', 'gw.outcome': 'succeeded' })).toBe(120);
    const statementTimes = points(metrics, 'gw.batch.ledger.statement.duration');
    const byStatement = new Map(statementTimes.map((p) => [p.attributes['gw.batch.statement'], p.value as { count: number; sum: number }]));
    for (const statement of ['step', 'intake', 'status', 'create_batch', 'seal']) expect(byStatement.get(statement)?.count, statement).toBeGreaterThan(0);
    expect(byStatement.get('step')!.count).toBe(steps.length);
    expect(byStatement.get('step')!.sum).toBeGreaterThan(0);

    expect(await telemetry.everything()).not.toContain('4111111111111111');
  });
});
