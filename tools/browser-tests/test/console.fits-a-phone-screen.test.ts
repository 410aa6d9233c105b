import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@gw/test-support/chromium';
import { screenshot } from './browser.ts';

let sandbox: Sandbox;
let browser: Browser;
let orderId: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const client = createClient({ baseUrl: sandbox.url, ...SANDBOX_DEFAULT_MERCHANT, signer, verifier: signer });
  // Long order numbers, a notify_url nobody answers (five failed attempts with their errors), a pending checkout.
  for (let i = 0; i < 3; i++) {
    const paid = await client.authoriseCard({ order_no: `PHONE-${i}-a-long-merchant-order-number`, currency: 'USD', amount: '1234.56', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123', notify_url: 'http://127.0.0.1:9/hooks/gw/payments' });
    orderId = String(paid.transaction_id);
  }
  await client.checkout({ order_no: 'PHONE-CHECKOUT', currency: 'USD', amount: '10.00', return_url: 'https://merchant.example/return', notify_url: 'http://127.0.0.1:9/hooks' } as never);
  await client.close();
  await sandbox.notificationsIdle();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

const PAGES = ['', 'notifications', 'faults', 'clock'] as const;

describe('the console on a phone (390 px) and a laptop (1280 px)', () => {
  for (const width of [390, 1280]) {
    it(`${width} px: no page is wider than the screen (wide tables scroll inside their box)`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        for (const path of [...PAGES, `orders/${orderId}`]) {
          await page.goto(`${sandbox.url}/sandbox/console/${path}`);
          // Evaluated in the page (a string: this package's TypeScript has no DOM types).
          const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
          expect([path || 'orders', scrollWidth]).toEqual([path || 'orders', innerWidth]);
          await screenshot(page, `console-${(path || 'orders').replace(/\/.*/, '')}-${width}`);
        }
      } finally {
        await page.close();
      }
    }, 60_000);
  }

  it('a pending checkout shows no result yet', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      const pending = [...sandbox.state.orders.values()].find((o) => o.state === 'pending')!;
      await page.goto(`${sandbox.url}/sandbox/console/orders/${pending.transactionId}`);
      const text = await page.textContent('dl');
      expect(text).toContain('none yet');
      expect(text).not.toContain('0000:Success');
    } finally {
      await page.close();
    }
  });
});
