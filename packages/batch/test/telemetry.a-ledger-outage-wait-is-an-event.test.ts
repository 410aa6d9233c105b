// A ledger out of reach for a while under a running batch (a proxy in front of PostgreSQL cut, then opened again):
// each wait before the statement is tried again is a `gw.batch.outage_wait` event (how long it waits, how long the
// ledger has been down, why) on the span whose statement waited; the batch finishes, every order captured once.
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { captureTelemetry, type TelemetryCapture } from '@gw/test-support/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBatchId, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';
import { cuttableProxy, type CuttableProxy } from './telemetry/cuttable-proxy.ts';
import { named, parentOf } from './telemetry/telemetry-helpers.ts';

let sandbox: Sandbox;
let direct: string;
sandboxAndDatabaseForFile((started, _url, directUrl) => {
  sandbox = started;
  direct = directUrl;
});
let telemetry: TelemetryCapture;
let proxy: CuttableProxy;
beforeAll(async () => {
  telemetry = captureTelemetry();
  proxy = await cuttableProxy(direct);
});
afterAll(async () => {
  await proxy.close();
  await telemetry.stop();
});

describe('a ledger out of reach under a running batch, traced', () => {
  it('gives an outage_wait event per wait on the span whose statement waited, and the batch finishes', async () => {
    const orders = await authorisedOrders(sandbox, 150);
    telemetry.reset();
    let cut = false;
    let reopened: Promise<void> = Promise.resolve();
    // Once the first chunk is answered the ledger goes out of reach for 800 ms: its commit waits for it.
    const onStage = async (stage: string): Promise<void> => {
      if (stage !== 'answered' || cut) return;
      cut = true;
      await proxy.cut();
      reopened = sleep(800).then(() => proxy.open());
    };
    // `onStage` is the crash tests' hook, not public: given as the crash fixture gives it. A step whose answer the cut
    // lost is tried again and answers what its first try leased (the default 60 s lease: nothing waits it out).
    const options = {
      client: clientFor(sandbox),
      operation: 'capture' as const,
      orders,
      concurrency: 1,
      ledger: proxy.url,
      batch: newBatchId(),
      reconcile: sandboxReconciler,
      onStage,
      timeoutMs: 1_500,
      sendMarginMs: 500,
    };
    const result = await runBatch(options);
    await reopened;
    expect(result.counts).toEqual({ succeeded: 150, failed: 0, rejected: 0, unknown: 0 });

    const spans = telemetry.spans();
    const [run] = named(spans, 'gw.batch capture');
    const waits = spans.flatMap((s) => s.events.filter((e) => e.name === 'gw.batch.outage_wait').map((e) => ({ span: s, event: e })));
    expect(waits.length).toBeGreaterThan(0);
    for (const { span, event } of waits) {
      expect(span === run || parentOf(spans, span) === run || parentOf(spans, parentOf(spans, span)!) === run).toBe(true);
      expect(event.attributes).toEqual({
        'gw.batch.wait_ms': expect.any(Number),
        'gw.batch.down_ms': expect.any(Number),
        'gw.batch.reason': expect.any(String),
      });
    }
    const waited = waits.reduce((ms, w) => ms + (w.event.attributes!['gw.batch.wait_ms'] as number), 0);
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(run!.status.code).not.toBe(2);
  });
});
