// A HAR recorded by a real Chromium replaying real client traffic to a sandbox, checked by gw spec check --har.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type GwClient } from '@gw/client';
import { startProxy, type DriftReport, type Exchange } from '@gw/proxy';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { launchChromium } from '@gw/test-support/chromium';
import { describe, expect, it } from 'vitest';
import { gw } from './io.ts';

const CARD = '4111111111111111';
const CVV = '737';
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const clock = (): Date => new Date('2026-03-04T05:06:07Z');

function clientAt(baseUrl: string, form = false): GwClient {
  return createClient({
    baseUrl,
    ...SANDBOX_DEFAULT_MERCHANT,
    signer,
    retry: { attempts: 1 },
    ...(form ? { encodingOverrides: { authoriseCard: 'form' as const } } : {}),
  });
}

/** Real client traffic (JSON, form, XML answer, HTML answer, batch) to a sandbox, as the bytes that went over the wire. */
async function clientTraffic(): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  await using sandbox = await startSandbox({ clock, seed: 7 });
  await using proxy = await startProxy({ upstream: sandbox.url, onExchange: (e) => exchanges.push(e) });
  const [client, formClient] = [clientAt(proxy.url), clientAt(proxy.url, true)];
  const card = { currency: 'USD', amount: '40.00', card: CARD, expiration_month: '12', expiration_year: '2031', security_code: CVV };
  const one = await client.authoriseCard({ ...card, order_no: 'HAR-1' });
  await formClient.authoriseCard({ ...card, order_no: 'HAR-2' });
  await client.checkout({ order_no: 'HAR-3', currency: 'USD', amount: '59.90', return_url: 'https://shop.example.test/ok' });
  await client.capture({ capture_orders: [{ transaction_id: one.transaction_id!, order_no: 'HAR-1', currency: 'USD', amount: '40.00' }] });
  await client.query({ transaction_id: [one.transaction_id!] });
  return exchanges;
}

/** Chromium on a page of the sandbox sends the same requests with fetch, recording a HAR of everything it did. */
async function recordHar(sandboxUrl: string, exchanges: readonly Exchange[], harPath: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ recordHar: { path: harPath } });
    const page = await context.newPage();
    await page.goto(`${sandboxUrl}/sandbox/console`);
    const requests = exchanges.map((e) => ({ path: e.path, contentType: e.requestContentType, body: e.requestBody!.toString('utf8') }));
    await page.evaluate(async (list) => {
      for (const r of list) await (await fetch(r.path, { method: 'POST', headers: { 'content-type': r.contentType }, body: r.body })).text();
    }, requests);
    await context.close();
  } finally {
    await browser.close();
  }
}

describe('gw spec check --har', () => {
  it("checks a browser's recording as live traffic: the drift it holds, the console page skipped, no card data in the report", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-har-'));
    const exchanges = await clientTraffic();
    expect(exchanges).toHaveLength(5);
    {
      await using sandbox = await startSandbox({ clock, seed: 7, answerDrift: { capture: { add: { settlement_window: 'T+1' } } } });
      await recordHar(sandbox.url, exchanges, join(dir, 'traffic.har'));
    }
    const har = await readFile(join(dir, 'traffic.har'), 'utf8');
    expect(har).toContain(CARD);

    const env = { GW_TEST_SECRET: SANDBOX_DEFAULT_SECRET };
    const c = await gw(['spec', 'check', '--har', 'traffic.har', '--secret-env', 'GW_TEST_SECRET', '--report', 'drift.json'], { cwd: dir, env });
    expect(c.err).toBe('');
    expect(c.status).toBe(13);
    expect(c.out).toMatch(/traffic\.har: 5 \/v1 exchange\(s\) checked, [1-9]\d* other entr(y|ies) skipped/);
    expect(c.out).toContain('signatures verified');
    expect(c.out).toMatch(/capture: 1 kind\(s\) of drift\n {2}response unknown-field settlement_window: .*\(1x, first 2\d{3}-.*\)\s+e\.g\. "T\+1"/);
    const report = JSON.parse(await readFile(join(dir, 'drift.json'), 'utf8')) as DriftReport;
    // The query of the captured order answers the sandbox's own payment_status 3001, listed in the spec (U28, U56): no drift.
    expect(report.drift.map(({ operation, kind, path, count, example }) => ({ operation, kind, path, count, example }))).toEqual([
      { operation: 'capture', kind: 'unknown-field', path: 'settlement_window', count: 1, example: '"T+1"' },
    ]);
    expect(report.observations.query?.values['orders_list[].payment_status']?.counts).toEqual({ '3001': 1 });
    expect(report.observations.authoriseCard?.requestForms).toEqual({ json: 1, form: 1 });
    expect(Object.keys(report.observations).sort()).toEqual(['authoriseCard', 'capture', 'checkout', 'query']);
    for (const secret of [CARD, `"${CVV}"`, SANDBOX_DEFAULT_SECRET]) expect(JSON.stringify(report) + c.out, secret).not.toContain(secret);

    // The report is the proxy's format: gw spec drift reads it, --json gives the same drift.
    const json = await gw(['spec', 'drift', 'drift.json', '--json'], { cwd: dir });
    expect(json.status).toBe(13);
    expect(JSON.parse(json.out).drift).toEqual(report.drift);
  }, 60_000);

  it('a file that is not a HAR, or entries without what every entry has: each problem named (exit 7)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-har-'));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'not.har'), '{"log":{}}');
    await writeFile(
      join(dir, 'bad.har'),
      JSON.stringify({ log: { entries: [{ request: { url: 'http://127.0.0.1/v1/capture' }, response: {}, startedDateTime: 'soon' }, 7] } }),
    );
    const not = await gw(['spec', 'check', '--har', 'not.har'], { cwd: dir });
    expect(not.status).toBe(7);
    expect(not.err).toContain('not a HAR recording: it has no log.entries array');
    const bad = await gw(['spec', 'check', '--har', 'bad.har'], { cwd: dir });
    expect(bad.status).toBe(7);
    for (const problem of [
      'log.entries[0].response.status: missing',
      'log.entries[0].startedDateTime: missing or not a date',
      'log.entries[1]: is not an object',
    ])
      expect(bad.err).toContain(problem);
    const missing = await gw(['spec', 'check', '--har', 'none.har'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.err).toContain('cannot read the HAR file none.har: ENOENT');
  });
});
