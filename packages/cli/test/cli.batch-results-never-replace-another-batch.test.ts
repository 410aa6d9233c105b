import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('gw batch results files', () => {
  it('names the operation, so a query batch keeps the capture batch results, and refuses to replace them unasked', async () => {
    const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
    const client = createClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer });
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-results-'));
    const rows = ['transaction_id,order_no,currency,amount'];
    for (let i = 0; i < 3; i += 1) {
      const order_no = `RES-${process.pid}-${i}`;
      const paid = await client.authoriseCard({ order_no, currency: 'USD', amount: '2.00', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123' });
      rows.push(`${paid.transaction_id},${order_no},USD,2.00`);
    }
    writeFileSync(join(dir, 'orders.csv'), `${rows.join('\n')}\n`);
    const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox'];

    const capture = await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture.jsonl', ...flags], dir);
    expect(capture.status).toBe(EXIT_CODES.ok);
    expect(capture.out).toContain('results: orders.capture.results.csv');
    const captured = readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8');
    expect(captured.match(/succeeded/g)).toHaveLength(3);

    const query = await gw(['batch', 'query', 'orders.csv', '--journal', 'query.jsonl', ...flags], dir);
    expect(query.status).toBe(EXIT_CODES.ok);
    expect(query.out).toContain('results: orders.query.results.csv');
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8')).toBe(captured);
    expect(existsSync(join(dir, 'orders.query.results.csv'))).toBe(true);

    const requests = sandbox.state.requestCount;
    const again = await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture-2.jsonl', ...flags], dir);
    expect(again.status).toBe(EXIT_CODES.usage);
    expect(again.err).toContain('orders.capture.results.csv exists');
    expect(again.err).toContain('--results');
    expect(sandbox.state.requestCount).toBe(requests);
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8')).toBe(captured);

    const chosen = await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture-2.jsonl', '--results', 'second.csv', ...flags], dir);
    expect(chosen.out).toContain('results: second.csv');
    expect(existsSync(join(dir, 'second.csv'))).toBe(true);
  });
});
