import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalInUseError, resumeBatch, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const refundRequests = () => sandbox.state.requests.filter((r) => r.path === '/v1/refund').length;

describe('runBatch given a journal that already holds a batch', () => {
  it('refuses it before sending anything, naming resumeBatch, so a second run never refunds the same orders again', async () => {
    const captured = await authorisedOrders(sandbox, 60, '30.00');
    const client = clientFor(sandbox);
    await runBatch({ client, operation: 'capture', orders: captured });
    const refunds = captured.map((o) => ({
      transaction_id: o.transaction_id,
      currency: o.currency,
      amount: o.amount,
      refund_amount: '5.00',
      refund_reason: 'damaged',
    }));
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-in-use-')), 'refunds.jsonl');
    const first = await runBatch({ client, operation: 'refund', orders: refunds, journal });
    expect(first.counts.succeeded).toBe(60);
    const bytes = statSync(journal).size;
    const sentBefore = refundRequests();

    const again = runBatch({ client, operation: 'refund', orders: refunds, journal });
    await expect(again).rejects.toBeInstanceOf(JournalInUseError);
    await expect(again).rejects.toMatchObject({ code: 'GW_CONFIG', details: { journal, bytes } });
    await expect(again).rejects.toThrow(/already holds a batch .* finish that batch with resumeBatch/);
    expect(refundRequests()).toBe(sentBefore);
    expect(statSync(journal).size).toBe(bytes);

    // The journal is still the first batch's: resuming it finds every order settled and sends nothing.
    const resumed = await resumeBatch({ client, operation: 'refund', orders: refunds, journal });
    expect(resumed.counts).toEqual({ succeeded: 60, failed: 0, rejected: 0, unknown: 0 });
    expect(refundRequests()).toBe(sentBefore);
  });

  it('takes an empty journal file made beforehand (a temp file) as a new journal', async () => {
    const orders = await authorisedOrders(sandbox, 3, '31.00');
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-in-use-')), 'made-before.jsonl');
    writeFileSync(journal, '');
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, journal });
    expect(result.counts.succeeded).toBe(3);
    expect(readFileSync(journal, 'utf8').split('\n')[0]).toContain('"type":"start"');
  });
});
