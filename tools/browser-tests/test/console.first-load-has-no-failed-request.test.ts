import { startSandbox, TEST_CARDS, type Sandbox } from '@gw/sandbox';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@gw/test-support';
import { launchChromium } from '@gw/test-support/chromium';
import { sandboxClient } from './console-harness.ts';
import { recordingProxy } from './recording-proxy.ts';

let sandbox: Sandbox;
let browser: Browser;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let orderId: string;

beforeAll(async () => {
  [sandbox, proxy] = await Promise.all([startSandbox(), recordingProxy()]);
  const client = sandboxClient(sandbox);
  const paid = await client.authoriseCard({
    order_no: 'FIRST-LOAD-1',
    currency: 'USD',
    amount: '5.00',
    card: TEST_CARDS.approved,
    expiration_month: '12',
    expiration_year: '2030',
    security_code: '123',
  });
  orderId = String(paid.transaction_id);
  await client.close();
  // Every request of the browser goes through the proxy, which sees what Playwright's page events do not (the icon).
  browser = await launchChromium(proxy.chromiumArgs);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await sandbox?.stop();
});

describe('the console on a first load', () => {
  it('answers every request the browser makes (the page and its icon) without a status of 400 or more', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const page = await context.newPage();
      for (const path of ['', 'notifications', 'faults', 'clock', `orders/${orderId}`])
        await page.goto(`${sandbox.url}/sandbox/console/${path}`, { waitUntil: 'networkidle' });
      // A window for the browser's own icon request, made after the load if the page names no icon: that nothing
      // failed in it is the check, so it is time that passes, with no event to wait for.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(proxy.requests.filter((r) => r.url.includes('/sandbox/console'))).toHaveLength(5);
      expect(proxy.requests.filter((r) => r.status === 0 || r.status >= 400)).toEqual([]);

      // The recorder sees a failed request when there is one.
      await page.goto(`${sandbox.url}/sandbox/console/no-such-page`);
      await until(() => proxy.requests.some((r) => r.status === 404));
      expect(proxy.requests.filter((r) => r.status >= 400).map((r) => new URL(r.url).pathname)).toEqual(['/sandbox/console/no-such-page']);
    } finally {
      await context.close();
    }
  });
});
