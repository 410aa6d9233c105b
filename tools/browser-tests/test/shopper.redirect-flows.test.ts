// The shopper's side in a real Chromium. A merchant app creates each order through @gw/client; the browser
// follows the gateway's page or issuer_url through the sandbox's pages and back to the merchant. Each payment ends with
// the merchant's @gw/notifications handler called exactly once with a verified event, even when resent.
import { SANDBOX_PAYMENT_STATUS, TEST_CARDS, startSandbox, type Sandbox } from '@gw/sandbox';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screenshot } from './browser.ts';
import { startMerchantApp, type MerchantApp } from './merchant-app.ts';
import { shopperWorldForFile } from './shopper-world.ts';

let browser: Browser;
let sandbox: Sandbox;
let app: MerchantApp;
let context: BrowserContext;
let page: Page;

shopperWorldForFile((world) => ({ browser, sandbox, app } = world));
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  page = await context.newPage();
});
afterEach(() => context.close());

/** The merchant's result page as a map of its fields. */
async function merchantResult(): Promise<Record<string, string>> {
  await expect.poll(() => page.locator('#verified').count()).toBe(1);
  const fields = await page.locator('dd[data-field]').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-field')!, n.textContent ?? '']));
  return Object.fromEntries(fields);
}

/** Opens the merchant's checkout, waits for the sandbox's card page and fills the card form. */
async function startCheckout(name: string, card: string, amount = '59.90'): Promise<void> {
  await page.goto(`${app.url}/buy/checkout?amount=${amount}`);
  await page.waitForURL(/\/sandbox\/pay\//);
  await expect.poll(() => page.getByRole('heading', { name: 'Checkout' }).count()).toBe(1);
  expect(await page.getByLabel('Total').textContent()).toBe(`${amount} USD`);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVV').fill('123');
  await page.getByLabel('Name on card').fill('Ana Lee');
  await screenshot(page, `${name}-1-checkout`);
}

/**
 * The merchant handler's calls for one order, once the sandbox is idle: each a verified event. Every delivery about the
 * order is then resent (same event id) to show the handler still runs once per payment.
 */
async function handled(
  orderNo: string,
  on: { sandbox: Sandbox; app: MerchantApp } = { sandbox, app },
): Promise<{ kind: string; data: Record<string, unknown> }[]> {
  await on.sandbox.notificationsIdle();
  const calls = () =>
    on.app.notifications
      .filter((e) => (e.data as { order_no?: string }).order_no === orderNo)
      .map((e) => ({ kind: e.kind, data: e.data as unknown as Record<string, unknown> }));
  const before = calls();
  const deliveries = on.sandbox.state.notifications.filter((d) => (d.event.data as { order_no?: string }).order_no === orderNo);
  for (const d of deliveries) expect(on.sandbox.resendNotification(d.id)).not.toBeNull();
  await on.sandbox.notificationsIdle();
  expect(on.sandbox.state.notifications.filter((d) => deliveries.some((o) => o.id === d.resendOf)).every((d) => d.delivered)).toBe(true);
  expect(calls()).toEqual(before);
  expect(on.app.refusedNotifications).toEqual([]);
  return before;
}

/** Exactly one verified handler call for the order, of this kind, whose result record matches. */
async function expectOneNotification(orderNo: string, kind: string, data: Record<string, unknown>, on?: { sandbox: Sandbox; app: MerchantApp }): Promise<void> {
  expect(await handled(orderNo, on)).toEqual([{ kind, data: expect.objectContaining({ order_no: orderNo, ...data }) }]);
}

describe('hosted checkout in a browser', () => {
  it('pays with a test card, lands on return_url, and the query shows it authorised', async () => {
    await startCheckout('checkout-paid', TEST_CARDS.approved);
    await expect.poll(() => page.getByText('Blue mug × 2').count()).toBe(1);
    await page.getByRole('button', { name: 'Pay 59.90 USD' }).click();
    await page.waitForURL(/\/return\?/);
    const result = await merchantResult();
    await screenshot(page, 'checkout-paid-2-return');
    expect(result).toMatchObject({ Result: 'authorised', 'Result info': '0000:Success', 'payment_status (query)': SANDBOX_PAYMENT_STATUS.authorised });
    await expectOneNotification(result.Order!, 'payment.authorised', { order_status: '1', card: '411111******1111' });
  });

  it('cancels: lands on cancel_url and the order is cancelled', async () => {
    await startCheckout('checkout-cancelled', '');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/cancel\?/);
    const result = await merchantResult();
    await screenshot(page, 'checkout-cancelled-2-cancel');
    expect(result).toMatchObject({ Result: 'cancelled', 'payment_status (query)': SANDBOX_PAYMENT_STATUS.cancelled });
    await expectOneNotification(result.Order!, 'payment.cancelled', { order_status: '0' });
  });

  it('declines a declining test card: back on return_url with the reason', async () => {
    await startCheckout('checkout-declined', TEST_CARDS.insufficientFunds);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/return\?/);
    const result = await merchantResult();
    await screenshot(page, 'checkout-declined-2-return');
    expect(result).toMatchObject({ Result: 'declined', 'Result info': '2004:Insufficient funds', 'payment_status (query)': SANDBOX_PAYMENT_STATUS.declined });
    await expectOneNotification(result.Order!, 'payment.declined', { order_status: '0', result_info: '2004:Insufficient funds' });
  });

  it('asks again, naming the problems, when the card entry is malformed', async () => {
    await startCheckout('checkout-invalid', '4111 11');
    await page.getByLabel('Expiry (MM/YY)').fill('13/30');
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Card number: enter 12 to 19 digits.');
    expect(await page.getByRole('alert').textContent()).toContain('Expiry: enter the month and year as MM/YY.');
    // The page's check script kept what was typed, except the CVV.
    expect(await page.getByLabel('Card number').inputValue()).toBe('4111 11');
    expect(await page.getByLabel('CVV').inputValue()).toBe('');
    await screenshot(page, 'checkout-invalid-2-asks-again');
    const orderNo = [...app.operations.keys()].at(-1)!;
    expect(await handled(orderNo)).toEqual([]); // still pending: nothing notified yet
  });

  for (const [button, result, info] of [
    ['Complete', 'authorised', '0000:Success'],
    ['Fail', 'declined', '2012:3-D Secure challenge failed'],
  ] as const) {
    it(`runs the 3-D Secure challenge of the challenge card: ${button} → ${result}`, async () => {
      const name = `challenge-${button.toLowerCase()}`;
      await startCheckout(name, TEST_CARDS.threeDsRequired);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/sandbox\/3ds\//);
      await expect.poll(() => page.getByRole('heading', { name: '3-D Secure check' }).count()).toBe(1);
      await screenshot(page, `${name}-2-challenge`);
      await page.getByRole('button', { name: button }).click();
      await page.waitForURL(/\/return\?/);
      const fields = await merchantResult();
      await screenshot(page, `${name}-3-return`);
      expect(fields).toMatchObject({ Result: result, 'Result info': info, 'payment_status (query)': SANDBOX_PAYMENT_STATUS[result] });
      await expectOneNotification(fields.Order!, `payment.${result}`, {
        result_info: info,
        threeds_result: result === 'authorised' ? 'CHALLENGE_PASSED' : 'CHALLENGE_FAILED',
      });
    });
  }

  it('works with JavaScript switched off: Continue on the merchant page, then the plain card form', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      const plain = await noScript.newPage();
      await plain.goto(`${app.url}/buy/checkout`);
      await plain.getByRole('button', { name: 'Continue' }).click();
      await plain.waitForURL(/\/sandbox\/pay\//);
      await plain.getByLabel('Card number').fill(TEST_CARDS.approved);
      await plain.getByLabel('Expiry (MM/YY)').fill('12/30');
      await plain.getByLabel('CVV').fill('123');
      await plain.getByLabel('Name on card').fill('Ana Lee');
      await plain.getByRole('button', { name: /^Pay / }).click();
      await plain.waitForURL(/\/return\?/);
      expect(await plain.locator('dd[data-field="Result"]').textContent()).toBe('authorised');
      await expectOneNotification((await plain.locator('dd[data-field="Order"]').textContent())!, 'payment.authorised', { order_status: '1' });
    } finally {
      await noScript.close();
    }
  });

  it('is readable on a phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      const mobile = await phone.newPage();
      await mobile.goto(`${app.url}/buy/checkout`);
      await mobile.waitForURL(/\/sandbox\/pay\//);
      await expect.poll(() => mobile.getByLabel('Card number').count()).toBe(1);
      // Nothing wider than the screen: no sideways scrolling.
      expect(await mobile.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await screenshot(mobile, 'checkout-phone');
    } finally {
      await phone.close();
    }
  });
});

describe('a direct card payment with a 3-D Secure challenge in a browser', () => {
  it('sends the shopper to challenge_url; Complete authorises it, notified then, and the page states the result', async () => {
    await page.goto(`${app.url}/buy/card-3ds`);
    await page.waitForURL(/\/sandbox\/3ds\//);
    await expect.poll(() => page.getByRole('heading', { name: '3-D Secure check' }).count()).toBe(1);
    await screenshot(page, 'direct-challenge-1-challenge');
    const orderNo = [...app.operations].find(([, op]) => op === 'authoriseCard')![0];
    expect(await handled(orderNo)).toEqual([]);
    await page.getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Payment authorised' }).count()).toBe(1);
    await screenshot(page, 'direct-challenge-2-result');
    expect((await app.client.query({ order_no: orderNo })).orders_list?.[0]).toMatchObject({ payment_status: SANDBOX_PAYMENT_STATUS.authorised, is3ds: '1' });
    await expectOneNotification(orderNo, 'payment.authorised', { order_status: '1', threeds_result: 'CHALLENGE_PASSED' });
  });
});

describe('an alternative method in a browser', () => {
  for (const [button, result] of [
    ['Approve', 'authorised'],
    ['Decline', 'declined'],
  ] as const) {
    it(`${button} on the issuer page lands on return_url with the order ${result}`, async () => {
      const name = `alternative-${button.toLowerCase()}`;
      await page.goto(`${app.url}/buy/alternative`);
      await page.waitForURL(/\/sandbox\/pay\//);
      await expect.poll(() => page.getByRole('heading', { name: 'PIX payment' }).count()).toBe(1);
      await screenshot(page, `${name}-1-issuer`);
      await page.getByRole('button', { name: button }).click();
      await page.waitForURL(/\/return\?/);
      const fields = await merchantResult();
      await screenshot(page, `${name}-2-return`);
      expect(fields).toMatchObject({ Result: result, 'payment_status (query)': SANDBOX_PAYMENT_STATUS[result] });
      await expectOneNotification(fields.Order!, `payment.${result}`, { order_status: result === 'authorised' ? '1' : '0' });
    });
  }
});

describe('an abandoned order in a browser', () => {
  it('expires after redirectExpiryMs; the page then says so and the query shows it expired', async () => {
    await using short = await startSandbox({ redirectExpiryMs: 1000, notify: { baseDelayMs: 20 } });
    const shop = await startMerchantApp(short);
    try {
      await page.goto(`${shop.url}/buy/checkout`);
      await page.waitForURL(/\/sandbox\/pay\//);
      const payUrl = page.url();
      const orderNo = [...shop.operations.keys()][0]!;
      await expect
        .poll(async () => (await shop.client.query({ order_no: orderNo })).orders_list?.[0]?.payment_status, { timeout: 5000 })
        .toBe(SANDBOX_PAYMENT_STATUS.expired);
      await page.goto(payUrl);
      await expect.poll(() => page.getByRole('heading', { name: 'Payment expired' }).count()).toBe(1);
      await screenshot(page, 'abandoned-expired');
      await expectOneNotification(
        orderNo,
        'payment.expired',
        { order_status: '0', result_info: expect.stringMatching(/^2021:/) },
        { sandbox: short, app: shop },
      );
      expect(shop.notifications).toHaveLength(1);
    } finally {
      await shop.close();
    }
  });
});
