import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gwIn } from './io.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const gw = (args: string[], cwd: string) => gwIn(cwd, args);

describe('gw batch on a journal another run is using', () => {
  it('--resume exits 2 (usage/config) naming the holder, sends nothing, and the run goes on to refund each order once', async () => {
    const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
    const client = createClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer });
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-lock-'));
    const rows = ['transaction_id,order_no,currency,amount'];
    const refundRows = ['transaction_id,currency,amount,refund_amount,refund_reason'];
    const ids: string[] = [];
    for (let i = 0; i < 150; i += 1) {
      const order_no = `LOCK-${process.pid}-${i}`;
      const paid = await client.authoriseCard({ order_no, currency: 'USD', amount: '9.00', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123' });
      rows.push(`${paid.transaction_id},${order_no},USD,9.00`);
      refundRows.push(`${paid.transaction_id},USD,9.00,4.00,lock test`);
      ids.push(String(paid.transaction_id));
    }
    writeFileSync(join(dir, 'orders.csv'), `${rows.join('\n')}\n`);
    writeFileSync(join(dir, 'refunds.csv'), `${refundRows.join('\n')}\n`);
    const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox'];
    expect((await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture.jsonl', ...flags], dir)).status).toBe(EXIT_CODES.ok);

    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 1_500 } });
    const run = gw(['batch', 'refund', 'refunds.csv', '--journal', 'refund.jsonl', ...flags], dir);
    const journal = join(dir, 'refund.jsonl');
    while (!(existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"intent"'))) await sleep(10);
    const resume = await gw(['batch', 'refund', 'refunds.csv', '--journal', 'refund.jsonl', '--resume', ...flags], dir);
    expect(resume.status).toBe(EXIT_CODES.usage);
    expect(resume.err).toContain('GW_CONFIG');
    expect(resume.err).toContain(`pid ${process.pid} on host ${hostname()}`);
    expect(resume.err).toContain('nothing was sent');

    const ran = await run;
    sandbox.faults.setRules({});
    expect(ran.status).toBe(EXIT_CODES.ok);
    for (const id of ids) expect(sandbox.state.orders.get(id)!.refunds.length).toBe(1);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);
});
