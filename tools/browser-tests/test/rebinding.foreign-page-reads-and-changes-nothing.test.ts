// DNS rebinding in a real Chromium: a page of http://evil.test:<sandbox port>/ is first served by the attacker's server,
// then the name points at 127.0.0.1, so the page's fetches reach the sandbox as same-origin requests (`Host: evil.test`,
// and the Origin check is satisfied). The sandbox answers 403 to all of them: the page reads and changes nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@gw/test-support/chromium';
import { startMerchantApp } from './merchant-app.ts';

/** What the attacker's page tries, each with the status and the start of the body it got (or the error). */
const ATTACK = `<!doctype html><meta charset="utf-8"><title>cute cats</title><script>
async function attempt(path, init) {
  try {
    const response = await fetch(path, init);
    return { status: response.status, body: (await response.text()).slice(0, 2000) };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}
window.attack = (async () => {
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  return {
    orders: await attempt('/sandbox/api/orders'),
    console: await attempt('/sandbox/console'),
    fault: await attempt('/sandbox/api/faults/inject', { method: 'POST', headers: json, body: JSON.stringify({ path: '/v1/refund', kind: 'http-5xx', times: 5 }) }),
    clock: await attempt('/sandbox/api/clock/advance', { method: 'POST', headers: json, body: JSON.stringify({ seconds: 60 }) }),
    consoleReset: await attempt('/sandbox/console/reset', { method: 'POST', headers: form, body: 'confirm=yes' }),
    reset: await attempt('/sandbox/api/reset', { method: 'POST' }),
  };
})();
</script>`;

let browser: Browser;
let attacker: Server;
let attackerUrl: string;

beforeAll(async () => {
  // evil.test resolves to 127.0.0.1: the state after the attacker's DNS answer changed.
  browser = await launchChromium(['--headless', '--disable-background-networking', '--host-resolver-rules=MAP evil.test 127.0.0.1']);
  attacker = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(ATTACK));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await browser?.close();
  attacker?.close();
});

type Attempt = { status: number; body: string };

/** Opens http://evil.test:<sandbox port>/ in a fresh context, its document from the attacker's server (the name's first answer); returns what the page got. */
async function runAttack(sandbox: Sandbox): Promise<Record<string, Attempt>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const evil = `http://evil.test:${sandbox.port}/`;
    // Only the document itself comes from the attacker's server; every fetch of the page goes to evil.test, now 127.0.0.1.
    await page.route(evil, (route) => route.continue({ url: attackerUrl }));
    await page.goto(evil);
    expect(page.url()).toBe(evil);
    return await page.evaluate(() => (globalThis as unknown as { attack: Promise<Record<string, Attempt>> }).attack);
  } finally {
    await context.close();
  }
}

describe('a page rebound to 127.0.0.1 in Chromium', () => {
  it('can neither read the orders or the console nor switch a fault, move the clock or reset: every answer is 403', async () => {
    await using sandbox = await startSandbox();
    const shop = await startMerchantApp(sandbox);
    let transactionId: string;
    try {
      const paid = await shop.client.authoriseCard({
        order_no: `REBIND-${process.pid}`,
        currency: 'USD',
        amount: '10.00',
        card: '4111111111111111',
        expiration_month: '12',
        expiration_year: '2030',
        security_code: '123',
      });
      transactionId = paid.transaction_id!;
    } finally {
      await shop.close();
    }
    const got = await runAttack(sandbox);
    for (const [what, answer] of Object.entries(got)) {
      expect([what, answer.status]).toEqual([what, 403]);
      expect(answer.body, what).toContain('--allowed-host');
      expect(answer.body, what).not.toContain(transactionId);
    }
    expect(JSON.parse(got.orders!.body).error.code).toBe('host_not_allowed');
    expect(sandbox.state.orders.get(transactionId)?.state).toBe('authorised');
    expect(sandbox.state.orders.size).toBe(1);
    expect(Date.now() - sandbox.deps.clock().getTime()).toBeLessThan(30_000); // the clock did not move 60 s on
    sandbox.faults.inject('/v1/cancel', 'http-5xx');
    const queued = (await (await fetch(`${sandbox.url}/sandbox/api/faults`)).json()) as { queued: Record<string, unknown> };
    expect(queued.queued).toEqual({ '/v1/cancel': ['http-5xx'] });
  });

  it('reads and changes the sandbox when evil.test is in allowedHosts: the Host check is what stops it', async () => {
    await using sandbox = await startSandbox({ allowedHosts: ['evil.test'] });
    const got = await runAttack(sandbox);
    expect(got.orders!.status).toBe(200);
    expect(got.clock!.status).toBe(200);
    expect(got.reset!.status).toBe(200);
  });
});
