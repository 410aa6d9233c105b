import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { createClient } from '@gw/client';
import { createHmacSha256Signer } from '@gw/signer-interface';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@gw/test-support/chromium';
import { docsScreenshot, screenshot } from './browser.ts';

let sandbox: Sandbox;
let browser: Browser;
let refundedId: string;
const DRIFT = { authoriseCard: { add: { settlement_window: 'T+1' }, drop: ['order_status'] }, '*': { wrongSignature: true } };

async function control(method: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sandbox.url}/sandbox/api/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect([path, res.status]).toEqual([path, 200]);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const client = createClient({ baseUrl: sandbox.url, ...SANDBOX_DEFAULT_MERCHANT, signer, verifier: signer });
  const card = { currency: 'USD', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123' };
  // Long order numbers, a notify_url nobody answers (five failed attempts with their errors), a refund, a pending checkout.
  for (let i = 0; i < 2; i++)
    await client.authoriseCard({
      ...card,
      order_no: `PHONE-${i}-a-long-merchant-order-number`,
      amount: '1234.56',
      notify_url: 'http://127.0.0.1:9/hooks/gw/payments',
    });
  const refunded = await client.authoriseCard({
    ...card,
    order_no: 'PHONE-REFUNDED-order-number',
    amount: '80.00',
    notify_url: 'http://127.0.0.1:9/hooks/gw/payments',
  });
  refundedId = String(refunded.transaction_id);
  await client.capture({ capture_orders: [{ transaction_id: refundedId, order_no: 'PHONE-REFUNDED-order-number', currency: 'USD', amount: '80.00' }] });
  await client.refund({
    refund_orders: [
      {
        transaction_id: refundedId,
        order_no: 'PHONE-REFUNDED-order-number',
        currency: 'USD',
        amount: '80.00',
        refund_amount: '20.00',
        refund_reason: 'one item of the three came back damaged',
      },
    ],
  });
  await client.checkout({
    order_no: 'PHONE-CHECKOUT',
    currency: 'USD',
    amount: '10.00',
    return_url: 'https://merchant.example/return',
    notify_url: 'http://127.0.0.1:9/hooks',
  } as never);
  await client.close();
  await sandbox.notificationsIdle();
  // Set as a team would, through the control API: a fault rule, a queued fault, answer drift.
  await control('PUT', 'faults', { rules: { '/v1/capture': { http5xx: 0.25, latencyMs: [20, 400] } } });
  await control('POST', 'faults/inject', { path: '/v1/refund', kind: 'reset-after', times: 2 });
  await control('PUT', 'drift', DRIFT);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

/** Each list of each page, by its accessible name. */
const LISTS: Record<string, readonly string[]> = {
  '': ['Orders'],
  notifications: ['Notifications'],
  faults: ['Fault rules in force', 'Queued one-shot faults', 'Answer drift in force'],
  clock: [],
};

interface CellBox {
  label: string;
  shownLabel: string;
  left: number;
  right: number;
  width: number;
  scrollWidth: number;
  clientWidth: number;
}

/** Every body cell of the list named `name`: its box, its label as shown, and whether its content is wider than it. */
function cellsOf(page: Page, name: string): Promise<{ columns: number; rows: CellBox[][] }> {
  // Evaluated in the page (a string: this package's TypeScript has no DOM types).
  return page.evaluate(`(() => {
    const table = document.querySelector('table[aria-label=${JSON.stringify(name)}]');
    const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, width: r.width }; };
    const clipped = (el) => [el, ...el.querySelectorAll('*')].map((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth })).reduce((a, b) => (b.scrollWidth - b.clientWidth > a.scrollWidth - a.clientWidth ? b : a));
    return {
      columns: table.querySelectorAll('thead th').length,
      rows: [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => ({
        label: td.dataset.label, shownLabel: getComputedStyle(td, '::before').content, ...box(td), ...clipped(td.querySelector('.value')),
      }))),
    };
  })()`);
}

/** A page's screenshot name: `orders`, `order`, `faults`... */
function shotName(path: string): string {
  return path === '' ? 'orders' : path.replace(/s\/.*/, '');
}

async function documentWidth(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
}

describe('the console on a phone (390 px) and a laptop (1280 px)', () => {
  it('390 px: every column of every list is inside the screen, labelled and not clipped; no page scrolls sideways', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      for (const [path, lists] of Object.entries({ ...LISTS, [`orders/${refundedId}`]: ['History', 'Refunds', 'Notifications'] })) {
        await page.goto(`${sandbox.url}/sandbox/console/${path}`);
        expect([path, await documentWidth(page)]).toEqual([path, { scrollWidth: 390, innerWidth: 390 }]);
        for (const name of lists) {
          const { columns, rows } = await cellsOf(page, name);
          expect([path, name, rows.length > 0, columns > 1]).toEqual([path, name, true, true]);
          for (const row of rows) {
            expect(row).toHaveLength(columns);
            for (const cell of row) {
              const where = `${path || 'orders'} / ${name} / ${cell.label}`;
              expect({ where, inside: cell.left >= 0 && cell.right <= 390 && cell.width > 0, clipped: cell.scrollWidth > cell.clientWidth }).toEqual({
                where,
                inside: true,
                clipped: false,
              });
              expect([where, cell.shownLabel]).toEqual([where, JSON.stringify(cell.label)]);
            }
          }
        }
        await screenshot(page, `console-${shotName(path)}-390`);
      }
      // The README's screenshots: orders, notifications, and the Faults page with drift.
      for (const path of ['', 'notifications', 'faults']) {
        await page.goto(`${sandbox.url}/sandbox/console/${path}`);
        await docsScreenshot(page, `console-${shotName(path)}-390`);
      }
    } finally {
      await page.close();
    }
  }, 60_000);

  it('1280 px: lists stay tables (a header row, a row per line), orders and notifications whole on screen, no page wider than it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      for (const path of [...Object.keys(LISTS), `orders/${refundedId}`]) {
        await page.goto(`${sandbox.url}/sandbox/console/${path}`);
        expect([path, await documentWidth(page)]).toEqual([path, { scrollWidth: 1280, innerWidth: 1280 }]);
        await screenshot(page, `console-${shotName(path)}-1280`);
      }
      await page.goto(`${sandbox.url}/sandbox/console`);
      const layout = await page.evaluate<{ header: number; tops: number[][] }>(`(() => ({
        header: document.querySelector('table.list thead').getBoundingClientRect().height,
        tops: [...document.querySelectorAll('table.list tbody tr')].map((tr) => [...tr.children].map((td) => td.getBoundingClientRect().top)),
      }))()`);
      expect(layout.header).toBeGreaterThan(0);
      for (const tops of layout.tops) expect(new Set(tops).size).toBe(1);
      await docsScreenshot(page, 'console-orders-1280');
      for (const [path, name] of [
        ['', 'Orders'],
        ['notifications', 'Notifications'],
      ] as const) {
        await page.goto(`${sandbox.url}/sandbox/console/${path}`);
        const { rows } = await cellsOf(page, name);
        for (const cell of rows.flat())
          expect([name, cell.label, cell.right <= 1280, cell.scrollWidth <= cell.clientWidth]).toEqual([name, cell.label, true, true]);
      }
    } finally {
      await page.close();
    }
  }, 60_000);

  it('the Faults page shows the answer drift in force, and switches it off', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(`${sandbox.url}/sandbox/console/faults`);
      const drift = page.getByRole('table', { name: 'Answer drift in force' });
      const authorise = drift.getByRole('row').filter({ hasText: 'authoriseCard' });
      await expect(authorise.textContent()).resolves.toMatch(/add settlement_window = "T\+1".*leave out order_status/);
      await expect(drift.getByRole('row').filter({ hasText: 'every operation' }).textContent()).resolves.toContain('a signature that does not verify');
      await expect(page.getByRole('table', { name: 'Fault rules in force' }).textContent()).resolves.toContain('/v1/capture');
      await page.getByRole('button', { name: 'Switch drift off' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toContain('answer drift is off');
      await expect(page.getByRole('table', { name: 'Answer drift in force' }).count()).resolves.toBe(0);
      await expect(page.locator('main').textContent()).resolves.toContain('None: every answer follows the spec');
      expect(await (await fetch(`${sandbox.url}/sandbox/api/drift`)).json()).toEqual({ rules: {} });
      await control('PUT', 'drift', DRIFT);
    } finally {
      await page.close();
    }
  });

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
