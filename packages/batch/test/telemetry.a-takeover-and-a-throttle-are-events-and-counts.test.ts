// A chunk taken over from a holder whose lease ran out, and requests the gateway throttled, as a user reads them the
// next morning: a `gw.batch.takeover` event on the chunk's span and the gw.batch.chunks.taken_over counter; a
// `gw.batch.throttle` event (Retry-After, the pace after) on each throttled send's span and the gw.batch.throttles
// counter, both matching what the batch and the gateway counted.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBatchId, resumeBatch, runBatch } from '../src/index.ts';
import { claimKeyOf } from '../src/order-key.ts';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';
import { childrenOf, counted, named, parentOf } from './telemetry/telemetry-helpers.ts';

let sandbox: Sandbox;
let ledgerUrl: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledgerUrl = url;
});
let telemetry: TelemetryCapture;
beforeAll(() => {
  telemetry = captureTelemetry();
});
afterAll(async () => {
  await telemetry.stop();
});

/** A sealed ledger batch of `orders` in one chunk, leased by a holder ('ghost') that never sends it and whose lease runs out. */
async function batchLeftByAGhost(orders: Awaited<ReturnType<typeof authorisedOrders>>): Promise<string> {
  const batch = newBatchId();
  const ledger = await PgLedger.open(ledgerUrl, { maxConnections: 1 });
  try {
    await ledger.createBatch(batch, 'capture', 50, orders.length);
    const chunk = orders.map((order, index) => ({ pending: { index, order, resends: 0 }, key: claimKeyOf('capture', order) }));
    await ledger.intake(batch, 'capture', [chunk], [], orders.length, 0, null);
    await ledger.seal(batch, orders.length, null, '');
    expect((await ledger.step(batch, 'ghost', { leaseMs: 100, sendWindowMs: 0 }, 1, [])).leased).toHaveLength(1);
  } finally {
    await ledger.close();
  }
  await sleep(250);
  return batch;
}

describe('a takeover and a throttle, traced', () => {
  it('a chunk taken over from an expired lease: the takeover event on its span, its query under it, the counter, and the orders captured once', async () => {
    const orders = await authorisedOrders(sandbox, 10);
    const batch = await batchLeftByAGhost(orders);
    telemetry.reset();
    const result = await resumeBatch({ client: clientFor(sandbox), ledger: ledgerUrl, batch, holder: 'heir', reconcile: sandboxReconciler });
    expect(result.counts).toEqual({ succeeded: 10, failed: 0, rejected: 0, unknown: 0 });
    expect(result.worker.takenOver).toBe(1);

    const spans = telemetry.spans();
    const [run] = named(spans, 'gw.batch capture');
    expect(run!.attributes).toMatchObject({
      'gw.batch.role': 'resume',
      'gw.batch.store': 'ledger',
      'gw.batch.id': batch,
      'gw.batch.holder': 'heir',
      'gw.batch.taken_over': 1,
    });
    const chunks = named(spans, 'gw.batch.chunk');
    const takenOver = chunks.filter((c) => c.attributes['gw.batch.taken_over'] === true);
    expect(takenOver).toHaveLength(1);
    const [chunk] = takenOver;
    expect(parentOf(spans, chunk!)).toBe(run);
    expect(chunk!.events.map((e) => [e.name, e.attributes])).toEqual([
      ['gw.batch.takeover', { 'gw.batch.quiet_wait_ms': expect.any(Number), 'gw.batch.sent_before': false }],
    ]);
    // Never sent blindly: the taken-over chunk is queried, and its orders, found not applied, go out in a new chunk.
    expect(childrenOf(spans, chunk!).map((s) => s.name)).toEqual(['gw.batch.reconcile']);
    expect(chunk!.attributes).toMatchObject({ 'gw.batch.chunk.end': 'settled', 'gw.batch.resend': 10 });
    expect(
      chunks
        .filter((c) => c !== chunk)
        .map((c) =>
          childrenOf(spans, c)
            .map((s) => s.name)
            .sort(),
        ),
    ).toEqual([['gw.batch.send', 'gw.batch.settle']]);

    const metrics = await telemetry.metrics();
    expect(counted(metrics, 'gw.batch.chunks.taken_over', { 'gw.operation': 'capture' })).toBe(1);
    expect(counted(metrics, 'gw.batch.reconcile.queries', { 'gw.operation': 'capture' })).toBe(1);
    expect(counted(metrics, 'gw.batch.orders', { 'gw.operation': 'capture', 'gw.outcome': 'succeeded' })).toBe(10);
  });

  it('requests the gateway throttled: a throttle event on each throttled send with its Retry-After and the pace after, the counter and the run span matching the gateway', async () => {
    sandbox.throttle.set(null);
    const orders = await authorisedOrders(sandbox, 400, '12.00');
    sandbox.throttle.set({ ratePerSecond: 5 });
    sandbox.throttle.resetStats();
    telemetry.reset();
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-otel-t-')), 'j.jsonl');
    try {
      const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, concurrency: 8, journal, reconcile: sandboxReconciler });
      expect(result.counts).toEqual({ succeeded: 400, failed: 0, rejected: 0, unknown: 0 });
      const atTheGateway = sandbox.throttle.stats().throttled;
      expect(atTheGateway).toBeGreaterThan(0);
      expect(result.throttled).toBe(atTheGateway);

      const spans = telemetry.spans();
      const [run] = named(spans, 'gw.batch capture');
      expect(run!.attributes['gw.batch.throttles']).toBe(atTheGateway);
      const throttled = spans.flatMap((s) => s.events.filter((e) => e.name === 'gw.batch.throttle').map((e) => ({ span: s, event: e })));
      expect(throttled).toHaveLength(atTheGateway);
      for (const { span, event } of throttled) {
        expect(span.name).toBe('gw.batch.send');
        expect(span.attributes['gw.batch.unsent']).toBe('throttled');
        expect(event.attributes).toEqual({
          'gw.batch.retry_after_ms': expect.any(Number),
          'gw.batch.pace': expect.any(Number),
          'gw.batch.let_through': expect.any(Number),
        });
        expect(event.attributes!['gw.batch.retry_after_ms']).toBeGreaterThan(0);
      }
      const metrics = await telemetry.metrics();
      expect(counted(metrics, 'gw.batch.throttles', { 'gw.operation': 'capture' })).toBe(atTheGateway);
    } finally {
      sandbox.throttle.set(null);
    }
  });

  it('on a ledger: the same events and counter, the pace left out (the ledger keeps it for every worker), what the gateway let through given', async () => {
    sandbox.throttle.set(null);
    const orders = await authorisedOrders(sandbox, 400, '12.00');
    sandbox.throttle.set({ ratePerSecond: 5 });
    sandbox.throttle.resetStats();
    telemetry.reset();
    // The counter is cumulative over the file's tests.
    const before = counted(await telemetry.metrics(), 'gw.batch.throttles', { 'gw.operation': 'capture' });
    try {
      const result = await runBatch({
        client: clientFor(sandbox),
        operation: 'capture',
        orders,
        concurrency: 8,
        ledger: ledgerUrl,
        batch: newBatchId(),
        reconcile: sandboxReconciler,
      });
      expect(result.counts).toEqual({ succeeded: 400, failed: 0, rejected: 0, unknown: 0 });
      const atTheGateway = sandbox.throttle.stats().throttled;
      expect(atTheGateway).toBeGreaterThan(0);
      const spans = telemetry.spans();
      expect(named(spans, 'gw.batch capture')[0]!.attributes).toMatchObject({ 'gw.batch.store': 'ledger', 'gw.batch.throttles': atTheGateway });
      const events = spans.flatMap((s) => s.events.filter((e) => e.name === 'gw.batch.throttle').map((e) => ({ span: s, event: e })));
      expect(events).toHaveLength(atTheGateway);
      for (const { span, event } of events) {
        expect(span.name).toBe('gw.batch.send');
        expect(event.attributes).toEqual({ 'gw.batch.retry_after_ms': expect.any(Number), 'gw.batch.let_through': expect.any(Number) });
      }
      expect(counted(await telemetry.metrics(), 'gw.batch.throttles', { 'gw.operation': 'capture' })).toBe(before + atTheGateway);
    } finally {
      sandbox.throttle.set(null);
    }
  });
});
