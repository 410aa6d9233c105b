// A step whose connection is reset once the step statement has committed (its answer lost) is tried again: the retry
// hands back what the first try leased, so no chunk stays leased to a holder that does not know it holds it until its
// lease (60 s, the default) runs out. Cut many times, the batch still finishes promptly, every order captured once.
// Before the step had a token, the first try's chunks waited out that lease, were taken over, and (no reconciler
// here) ended unknown though never sent.
import type { Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBatchId, outcomesFromLedger, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';
import { answerCuttingProxy, type AnswerCuttingProxy } from './pg/answer-cutting-proxy.ts';

const ORDERS = 2_000; // 40 chunks of 50
const CUTS = 12;

let sandbox: Sandbox;
let direct: string;
sandboxAndDatabaseForFile((started, _url, directUrl) => {
  sandbox = started;
  direct = directUrl;
});
let proxy: AnswerCuttingProxy;
beforeAll(async () => {
  // Only the step statement (the one text with `committed_before`), every other one, until it was cut CUTS times.
  proxy = await answerCuttingProxy(direct, { marker: 'committed_before', cuts: CUTS, every: 2 });
});
afterAll(async () => {
  await proxy.close();
});

describe('a step retried after its connection was reset once it had committed', () => {
  it(`orphans no chunk: ${CUTS} steps cut, with the default 60 s lease the batch finishes promptly, every order captured once`, async () => {
    const orders = await authorisedOrders(sandbox, ORDERS, '7.00');
    const batch = newBatchId();
    const started = performance.now();
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, concurrency: 2, ledger: proxy.url, batch });
    const elapsedMs = performance.now() - started;
    expect(proxy.cut).toBe(CUTS);
    expect(result.counts).toEqual({ succeeded: ORDERS, failed: 0, rejected: 0, unknown: 0 });
    expect(orders.map((o) => sandbox.state.appliedCounts('capture').get(o.transaction_id) ?? 0).filter((n) => n !== 1)).toEqual([]);
    expect((await outcomesFromLedger(direct, batch)).map((o) => o.index)).toEqual(orders.map((_, i) => i));
    // A chunk orphaned by a cut would wait out its whole 60 s lease before another worker took it over.
    expect(elapsedMs).toBeLessThan(20_000);
  }, 120_000);
});
