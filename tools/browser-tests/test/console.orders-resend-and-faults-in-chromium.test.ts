import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, TEST_CARDS, type Sandbox } from '@gw/sandbox';
import type { GwClient } from '@gw/client';
import type { Browser, Page } from 'playwright-core';
import { until } from '@gw/test-support';
import { launchChromium } from '@gw/test-support/chromium';
import { screenshot } from './browser.ts';
import { notifyEndpoint, sandboxClient } from './console-harness.ts';

let sandbox: Sandbox;
let browser: Browser;
let page: Page;
let client: GwClient;
let hook: Awaited<ReturnType<typeof notifyEndpoint>>;
const paid: Record<string, string> = {};
const card = { currency: 'USD', expiration_month: '12', expiration_year: '2030', security_code: '123' };

beforeAll(async () => {
  [sandbox, browser, hook] = await Promise.all([startSandbox({ notify: { baseDelayMs: 5 } }), launchChromium(), notifyEndpoint()]);
  client = sandboxClient(sandbox);
  page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.setDefaultTimeout(5000);
  const a = await client.authoriseCard({ ...card, order_no: 'SHOP-1001', amount: '49.90', card: TEST_CARDS.approved, notify_url: hook.url });
  const b = await client.authoriseCard({ ...card, order_no: 'SHOP-1002', amount: '12.00', card: TEST_CARDS.declined });
  const c = await client.authoriseCard({ ...card, order_no: 'SHOP-1003', amount: '80.00', card: TEST_CARDS.approved });
  await client.capture({ capture_orders: [{ transaction_id: c.transaction_id, order_no: 'SHOP-1003', currency: 'USD', amount: '80.00' }] });
  await client.refund({
    refund_orders: [
      { transaction_id: c.transaction_id, order_no: 'SHOP-1003', currency: 'USD', amount: '80.00', refund_amount: '20.00', refund_reason: 'one item returned' },
    ],
  });
  Object.assign(paid, { approved: a.transaction_id, declined: b.transaction_id, refunded: c.transaction_id });
  await sandbox.notificationsIdle();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
  await sandbox?.stop();
  await hook?.close();
});

describe('the sandbox console in Chromium', () => {
  it('lists the orders with their state, filters them, and shows one order with its history and refunds', async () => {
    await page.goto(`${sandbox.url}/sandbox/console`);
    for (const id of Object.values(paid)) await expect(page.getByRole('link', { name: id }).count()).resolves.toBe(1);
    const refundedRow = page.getByRole('row').filter({ hasText: 'SHOP-1003' });
    await expect(refundedRow.textContent()).resolves.toContain('partially refunded');
    await screenshot(page, 'console-orders');

    await page.getByLabel('State').selectOption('declined');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByRole('link', { name: paid.declined! }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: paid.approved! }).count()).resolves.toBe(0);

    await page.goto(`${sandbox.url}/sandbox/console`);
    await page.getByRole('link', { name: paid.refunded! }).click();
    const body = await page.locator('main').textContent();
    for (const text of ['SHOP-1003', 'created', 'captured', 'refunded', '20.00 USD', 'one item returned']) expect(body).toContain(text);
    await screenshot(page, 'console-order');
  });

  it('resends a notification: a new delivery of the same event, which the merchant acknowledges without handling twice', async () => {
    expect(hook.bodies).toHaveLength(1);
    expect(hook.handled.map((e) => [e.kind, (e.data as { transaction_id?: string }).transaction_id])).toEqual([['payment.authorised', paid.approved]]);
    await page.goto(`${sandbox.url}/sandbox/console/notifications`);
    const row = page.getByRole('row').filter({ hasText: paid.approved! });
    await expect(row.textContent()).resolves.toContain('HTTP 200');
    await expect(row.textContent()).resolves.toContain('payment.authorised');
    await row.getByRole('button', { name: /Resend/ }).click();
    await expect(page.getByRole('status').textContent()).resolves.toMatch(
      /^event evt_[0-9a-f]{32} is being delivered again to .* as notification 2 \(resend of #1\)$/,
    );
    await until(() => hook.bodies.length === 2);
    expect(hook.bodies[1]).toBe(hook.bodies[0]);
    await sandbox.notificationsIdle();
    expect(hook.handled).toHaveLength(1); // same event id: the receiver answered 200 without running the handler again
    expect(hook.refused).toEqual([]);
    await page.reload();
    await screenshot(page, 'console-notifications');
    const rows = page.getByRole('row').filter({ hasText: paid.approved! });
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.first().textContent()).resolves.toContain('resend of #1'); // newest first
    for (const i of [0, 1]) await expect(rows.nth(i).locator('li').count()).resolves.toBe(1);
  });

  it('switches a fault on that the next client call meets, and off again', async () => {
    await page.goto(`${sandbox.url}/sandbox/console/faults`);
    await page.getByLabel('Operation').selectOption('/v1/capture');
    await page.getByLabel('Fault kind').selectOption('http-5xx');
    await page.getByLabel('Applies to').selectOption('always');
    await page.getByRole('button', { name: 'Switch on' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('/v1/capture: every request meets http-5xx');
    await screenshot(page, 'console-faults');
    const capture = { capture_orders: [{ transaction_id: paid.approved!, order_no: 'SHOP-1001', currency: 'USD', amount: '49.90' }] };
    await expect(client.capture(capture)).rejects.toMatchObject({ code: 'GW_HTTP' });
    expect(sandbox.state.requests.at(-1)).toMatchObject({ path: '/v1/capture', outcome: 'http-5xx' });
    expect(sandbox.state.orders.get(paid.approved!)!.state).toBe('authorised');

    await page.getByRole('button', { name: 'Switch every fault off' }).click();
    const done = await client.capture(capture);
    expect(done.capture_orders?.[0]).toMatchObject({ capture_status: '1' });
  });

  it('is readable on a phone: the clock page advances the clock and resets', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.goto(`${sandbox.url}/sandbox/console/clock`);
    await phone.getByLabel('Seconds').fill('3600');
    await phone.getByRole('button', { name: 'Advance', exact: true }).click();
    await expect(phone.getByRole('status').textContent()).resolves.toMatch(/clock now .*0 payment\(s\) expired/);
    const width = await phone.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'console-clock-phone');
    await phone.getByLabel('Delete everything').check();
    await phone.getByRole('button', { name: 'Reset the sandbox' }).click();
    await expect(phone.getByRole('status').textContent()).resolves.toContain('was reset');
    expect(sandbox.state.orders.size).toBe(0);
    await phone.close();
  });
});
