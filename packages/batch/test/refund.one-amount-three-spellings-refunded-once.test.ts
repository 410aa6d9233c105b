import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let ledgerUrl: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledgerUrl = url;
});

/** `count` orders of 10.00, authorised and captured in the sandbox. */
async function capturedOrders(count: number) {
  const orders = await authorisedOrders(sandbox, count, '10.00');
  const capture = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders });
  expect(capture.counts.succeeded).toBe(count);
  return orders;
}

/** The refunds the sandbox applied to the order, and their sum in minor units. */
function refundsOf(transactionId: string) {
  const order = sandbox.state.orders.get(transactionId)!;
  return { count: order.refunds.length, minor: sandbox.state.refundedMinor(order) };
}

describe('one refund written as 3, 3.00 or 03.000 is one refund', () => {
  it('file journal: in one batch each order is refunded once; the other spellings are rejected as duplicates of the first', async () => {
    const orders = await capturedOrders(40);
    const spellings = ['3', '3.00', '03.000'];
    // All of one spelling, then all of the next: order i's refunds are inputs i, 40 + i and 80 + i.
    const input = spellings.flatMap((refund_amount) => orders.map((o) => ({ ...o, refund_amount, refund_reason: 'damaged' })));
    const sent: string[] = [];
    const client = clientFor(sandbox, {
      hooks: {
        onRequest: (e: { record: { refund_orders?: { refund_amount: string }[] } }) => sent.push(...(e.record.refund_orders ?? []).map((r) => r.refund_amount)),
      },
    });
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-amount-')), 'journal.jsonl');
    const result = await runBatch({ client, operation: 'refund', orders: input, journal, concurrency: 4 });

    expect(indexesOf(result.outcomes)).toEqual(input.map((_, i) => i));
    expect(result.counts).toEqual({ succeeded: 40, failed: 0, rejected: 80, unknown: 0 });
    for (const outcome of result.outcomes.slice(40)) {
      expect(outcome).toMatchObject({
        kind: 'rejected',
        reason: expect.stringMatching(new RegExp(`^duplicate of input order #${outcome.index % 40} \\(the same transaction_id .*\\): not sent twice$`)),
      });
    }
    // The first spelling went on the wire as it was given.
    expect(sent).toEqual(orders.map(() => '3'));
    for (const o of orders) expect(refundsOf(o.transaction_id), o.order_no).toEqual({ count: 1, minor: 300n });
    expect(sandbox.state.invariantViolations()).toEqual([]);
  });

  it('PostgreSQL ledger: three batches of the same refunds (3.00, 3.0, 03.000) refund each order once; the later two reject every order "already in batch"', async () => {
    const orders = await capturedOrders(60);
    const settings = { client: clientFor(sandbox), operation: 'refund' as const, ledger: ledgerUrl, concurrency: 2, reconcile: sandboxReconciler };
    const first = await runBatch({ ...settings, batch: 'refund-a', orders: orders.map((o) => ({ ...o, refund_amount: '3.00', refund_reason: 'damaged' })) });
    expect(first.counts).toEqual({ succeeded: 60, failed: 0, rejected: 0, unknown: 0 });
    for (const [batch, refund_amount] of [
      ['refund-b', '3.0'],
      ['refund-c', '03.000'],
    ] as const) {
      const later = await runBatch({ ...settings, batch, orders: orders.map((o) => ({ ...o, refund_amount, refund_reason: 'damaged' })) });
      expect(indexesOf(later.outcomes), batch).toEqual(orders.map((_, i) => i));
      expect(later.counts, batch).toEqual({ succeeded: 0, failed: 0, rejected: 60, unknown: 0 });
      for (const outcome of later.outcomes) expect(outcome.reason).toMatch(new RegExp(`^already in batch refund-a \\(input order #${outcome.index}\\)`));
    }
    for (const o of orders) expect(refundsOf(o.transaction_id), o.order_no).toEqual({ count: 1, minor: 300n });
    expect(sandbox.state.invariantViolations()).toEqual([]);
  });

  it('PostgreSQL ledger: a different amount (3.01) or reason is another refund, claimed and sent', async () => {
    const orders = await capturedOrders(10);
    const settings = { client: clientFor(sandbox), operation: 'refund' as const, ledger: ledgerUrl, reconcile: sandboxReconciler };
    await runBatch({ ...settings, batch: 'partial-a', orders: orders.map((o) => ({ ...o, refund_amount: '3', refund_reason: 'damaged' })) });
    const other = await runBatch({ ...settings, batch: 'partial-b', orders: orders.map((o) => ({ ...o, refund_amount: '3.01', refund_reason: 'damaged' })) });
    expect(other.counts.succeeded).toBe(10);
    for (const o of orders) expect(refundsOf(o.transaction_id), o.order_no).toEqual({ count: 2, minor: 601n });
  });
});
