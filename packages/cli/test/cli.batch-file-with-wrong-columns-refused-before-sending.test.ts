import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderColumnsOf } from '@gw/batch';
import type { Sandbox } from '@gw/sandbox';
import { authoriseOrders } from '@gw/test-support';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { authorisedOrdersFile, sandboxClient, sandboxForFile } from './sandbox-harness.ts';

let sandbox: Sandbox;
sandboxForFile((started) => (sandbox = started));

describe('gw batch with an orders file whose columns do not fit the operation', () => {
  it('a capture CSV headed txn,order,currency,amount exits 3 before anything is sent or journaled, with did-you-means and the expected columns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-columns-'));
    const orders = await authoriseOrders(sandboxClient(sandbox), 2, { prefix: 'COLS', amount: '3.00' });
    writeFileSync(
      join(dir, 'orders.csv'),
      `txn,order,currency,amount\n${orders.map((o) => `${o.transaction_id},${o.order_no},${o.currency},${o.amount}`).join('\n')}\n`,
    );
    const before = sandbox.state.requestCount;
    const result = await gw(['batch', 'capture', 'orders.csv', '--journal', 'j.jsonl', '--base-url', sandbox.url, '--sandbox-defaults'], { cwd: dir });
    expect(result.status).toBe(EXIT_CODES.validation);
    expect(result.err).toContain('GW_VALIDATION');
    expect(result.err).toContain('orders.csv, line 1');
    expect(result.err).toContain('`txn` (did you mean `transaction_id`?)');
    expect(result.err).toContain('`order` (did you mean `order_no`?)');
    expect(result.err).toContain('add transaction_id or order_no');
    expect(result.err).toContain(`The capture columns are ${orderColumnsOf('capture').identifying.join(' or ')}`);
    for (const column of orderColumnsOf('capture').columns) expect(result.err).toContain(column);
    for (const order of orders) expect(result.err + result.out).not.toContain(order.transaction_id);
    expect(sandbox.state.requestCount).toBe(before);
    // Refused while counting the orders, before the batch opens its journal or results file.
    expect(readdirSync(dir)).toEqual(['orders.csv']);
  });

  it('a JSONL whose first order has a member the operation does not have exits 3 before anything is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-columns-'));
    writeFileSync(join(dir, 'refunds.jsonl'), '{"transaction_id":"T1","refund_amt":"1.00"}\n');
    const before = sandbox.state.requestCount;
    const result = await gw(['batch', 'refund', 'refunds.jsonl', '--journal', 'j.jsonl', '--base-url', sandbox.url, '--sandbox-defaults'], { cwd: dir });
    expect(result.status).toBe(EXIT_CODES.validation);
    expect(result.err).toContain('refunds.jsonl, line 1');
    expect(result.err).toContain('`refund_amt` (did you mean `refund_amount`?)');
    expect(result.err).toContain('refund_reason');
    expect(sandbox.state.requestCount).toBe(before);
    expect(existsSync(join(dir, 'j.jsonl'))).toBe(false);
  });

  it('a file with the spec columns still runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-columns-'));
    await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 2, { prefix: 'COLS-OK', amount: '4.00' });
    const result = await gw(
      ['batch', 'capture', 'orders.csv', '--journal', 'j.jsonl', '--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox'],
      { cwd: dir },
    );
    expect(result.status).toBe(EXIT_CODES.ok);
    expect(existsSync(join(dir, 'orders.capture.results.csv'))).toBe(true);
  });
});
