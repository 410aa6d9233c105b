import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { gw, gwStarted } from './io.ts';

const CARD = '4111111111111111';

describe('gw proxy, then gw spec drift', () => {
  it('the proxy writes a report of the drift the gateway showed; spec drift summarises it and exits 13', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-proxy-'));
    await using sandbox = await startSandbox({ answerDrift: { capture: { add: { settlement_window: 'T+1' } } } });
    const proxy = await gwStarted(
      ['proxy', '--upstream', sandbox.url, '--port', '0', '--report', 'drift.json', '--secret-env', 'GW_TEST_SECRET'],
      /on (http:\/\/127\.0\.0\.1:\d+)/,
      { cwd: dir, env: { GW_TEST_SECRET: SANDBOX_DEFAULT_SECRET } },
    );
    const { c, url: proxyUrl } = proxy;
    const client = createClient({ baseUrl: proxyUrl, ...SANDBOX_DEFAULT_MERCHANT, signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }) });
    const paid = await client.authoriseCard({
      order_no: 'CLI-1',
      currency: 'USD',
      amount: '10.00',
      card: CARD,
      expiration_month: '12',
      expiration_year: '2031',
      security_code: '737',
    });
    await client.capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'CLI-1', currency: 'USD', amount: '10.00' }] });
    expect(await proxy.stop()).toBe(0);
    expect(c.out()).toContain('2 exchange(s), 1 kind(s) of drift');

    const summary = await gw(['spec', 'drift', 'drift.json'], { cwd: dir });
    expect(summary.status).toBe(13);
    expect(summary.out).toContain('capture: 1 kind(s) of drift');
    expect(summary.out).toMatch(/response unknown-field settlement_window: .*\(1x, first .*\)\s+e\.g\. "T\+1"/);
    const json = await gw(['spec', 'drift', 'drift.json', '--json'], { cwd: dir });
    expect(json.status).toBe(13);
    expect(JSON.parse(json.out).drift).toEqual([expect.objectContaining({ operation: 'capture', kind: 'unknown-field', path: 'settlement_window', count: 1 })]);
    const text = (await readFile(join(dir, 'drift.json'), 'utf8')) + c.out() + c.err() + summary.out + json.out;
    for (const secret of [CARD, '"737"', SANDBOX_DEFAULT_SECRET]) expect(text).not.toContain(secret);
  });

  it('spec drift of a file that is not a report is bad input (exit 2); a report without drift exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-proxy-'));
    const missing = await gw(['spec', 'drift', 'nope.json'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.err).toContain('cannot read the report nope.json');
  });
});
