import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomesFromJournal, runBatch, writeResultsCsv, writeResultsJsonl, type BatchProgress } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('runBatch gives every input order exactly one outcome', () => {
  it('captures 230 orders in chunks of at most 50, rejecting invalid and duplicate inputs and reporting gateway failures', async () => {
    const good = await authorisedOrders(sandbox, 220);
    const input = [
      ...good,
      good[0]!, // a duplicate: reported, not sent twice
      { ...good[1]!, amount: '1.005' }, // the same order again (another amount): a duplicate capture, not sent
      { transaction_id: 'T-UNKNOWN', order_no: 'nope', currency: 'USD', amount: '1.00' }, // the gateway fails it
      { transaction_id: 'T1', order_no: 'bad', currency: 'usd', amount: '1,00' }, // invalid: refused before sending
    ];
    const before = sandbox.state.requestCount;
    const progress: BatchProgress[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'gw-batch-'));
    const result = await runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders: input,
      concurrency: 4,
      journal: join(dir, 'journal.jsonl'),
      onProgress: (p) => progress.push(p),
    });

    expect(indexesOf(result.outcomes)).toEqual(input.map((_, i) => i));
    expect(result.counts).toEqual({ succeeded: 220, failed: 1, rejected: 3, unknown: 0 });
    expect(result.outcomes[220]).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('duplicate of input order #0') });
    expect(result.outcomes[221]).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('duplicate of input order #1') });
    expect(result.outcomes[222]).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^E201:/) });
    expect(result.outcomes[223]).toMatchObject({
      kind: 'rejected',
      problems: [expect.objectContaining({ field: 'currency' }), expect.objectContaining({ field: 'amount' })],
    });
    // 221 orders went out: ceil(221 / 50) = 5 requests, never more than the limit each.
    expect(sandbox.state.requestCount - before).toBe(5);
    for (const [key, count] of sandbox.state.appliedCounts('capture')) expect(count, key).toBe(1);
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ done: 224, total: 224, inFlight: 0 });
    expect(last.ratePerSecond).toBeGreaterThan(0);

    const fromJournal = await outcomesFromJournal(join(dir, 'journal.jsonl'));
    expect(fromJournal).toEqual(result.outcomes);
    await writeResultsCsv(result.outcomes, join(dir, 'results.csv'));
    await writeResultsJsonl(result.outcomes, join(dir, 'results.jsonl'));
    const csv = readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('index,transaction_id,order_no,outcome,status,reason,reconciled,reconcile');
    expect(csv).toHaveLength(225);
    expect(
      readFileSync(join(dir, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).index),
    ).toEqual(input.map((_, i) => i));
  });

  it('keeps two refunds of one order out of the same request and rejects an exact repeat', async () => {
    const [order] = await authorisedOrders(sandbox, 1, '30.00');
    await runBatch({ client: clientFor(sandbox), operation: 'capture', orders: [order!] });
    const refunds = [
      { ...order!, refund_amount: '10.00', refund_reason: 'a' },
      { ...order!, refund_amount: '10.00', refund_reason: 'b' },
      { ...order!, refund_amount: '10.00', refund_reason: 'a' },
    ];
    const before = sandbox.state.requestCount;
    const result = await runBatch({ client: clientFor(sandbox), operation: 'refund', orders: refunds });
    expect(result.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'succeeded', 'rejected']);
    expect(sandbox.state.requestCount - before).toBe(2);
    expect(sandbox.state.orders.get(order!.transaction_id)!.refunds).toHaveLength(2);
  });

  it('queries orders 100 at a time and reports unknown ones as failed', async () => {
    const orders = await authorisedOrders(sandbox, 150);
    const selections = [...orders.map((o) => ({ order_no: o.order_no })), { transaction_id: 'T-NONE' }];
    const before = sandbox.state.requestCount;
    const result = await runBatch({ client: clientFor(sandbox), operation: 'query', orders: selections });
    expect(result.counts).toEqual({ succeeded: 150, failed: 1, rejected: 0, unknown: 0 });
    expect(sandbox.state.requestCount - before).toBe(2);
    expect(result.outcomes[0]!.result).toMatchObject({ order_no: orders[0]!.order_no, payment_status: '3000' });
  });
});
