// A bad card number on the hosted checkout page, in a real Chromium: with JavaScript the page's check script asks the
// sandbox first, shows the problems and keeps number, expiry and name in their inputs (only the CVV is cleared), and no
// page the server wrote ever holds them; without JavaScript the server re-renders the form keeping only the name.
import { TEST_CARDS, type Sandbox } from '@gw/sandbox';
import type { Browser, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser.ts';
import type { MerchantApp } from './merchant-app.ts';
import { shopperWorldForFile } from './shopper-world.ts';

let browser: Browser;
let sandbox: Sandbox;
let app: MerchantApp;

shopperWorldForFile((world) => ({ browser, sandbox, app } = world));

const BAD_NUMBER = '4111 1111 11';
const EXPIRY = '11/29';
const CVV = '987';

/** Every body the sandbox sent this page (documents and the check's answers), as text. */
function sandboxBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response: Response) => {
    if (response.url().startsWith(sandbox.url) && response.status() !== 303)
      void response.text().then(
        (text) => bodies.push(text),
        () => undefined,
      );
  });
  return bodies;
}

/** Opens the merchant's checkout (pressing Continue when scripts are off), fills the sandbox's card form, presses Pay. */
async function payWith(page: Page, card: string, scripts: boolean): Promise<void> {
  await page.goto(`${app.url}/buy/checkout`);
  if (!scripts) await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/sandbox\/pay\//);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY);
  await page.getByLabel('CVV').fill(CVV);
  await page.getByLabel('Name on card').fill('Ana Lee');
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** The values of the four card inputs. */
async function inputs(page: Page): Promise<Record<string, string>> {
  const value = (label: string) => page.getByLabel(label).inputValue();
  return { number: await value('Card number'), expiry: await value('Expiry (MM/YY)'), cvv: await value('CVV'), name: await value('Name on card') };
}

describe('a bad card number on the hosted checkout page', () => {
  it('with JavaScript: the problems shown, number, expiry and name kept, CVV cleared; fixed, the order is authorised', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      const page = await phone.newPage();
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      const bodies = sandboxBodies(page);
      const checks: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && /sandbox_action=check/.test(request.postData() ?? '')) checks.push(request.url());
      });
      let documents = 0;
      page.on('framenavigated', () => void (documents += 1));

      await payWith(page, BAD_NUMBER, true);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Card number: enter 12 to 19 digits.');
      expect(await page.getByRole('alert').textContent()).not.toContain('Expiry');
      expect(await inputs(page)).toEqual({ number: BAD_NUMBER, expiry: EXPIRY, cvv: '', name: 'Ana Lee' });
      expect(await page.evaluate<string>('document.activeElement && document.activeElement.id')).toBe('card_number');
      expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
      expect(checks).toHaveLength(1);
      const navigationsBeforePay = documents;
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await screenshot(page, 'checkout-bad-number-kept-390');
      // Nothing the sandbox sent this browser (the page, the check's answer) holds the expiry, CVV or number typed.
      await expect.poll(() => bodies.length).toBeGreaterThanOrEqual(2);
      expect(bodies.some((body) => body.includes('<form id="card-form"'))).toBe(true);
      expect(bodies).toContain(JSON.stringify({ problems: [{ field: 'card_number', message: 'Card number: enter 12 to 19 digits.' }] }));
      for (const secret of [EXPIRY, CVV, BAD_NUMBER]) expect(bodies.join('\n'), secret).not.toContain(secret);

      await page.getByLabel('Card number').fill(TEST_CARDS.approved);
      await page.getByLabel('CVV').fill(CVV);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/return\?/);
      expect(await page.locator('dd[data-field="Result"]').textContent()).toBe('authorised');
      expect(checks).toHaveLength(2);
      expect(documents).toBeGreaterThan(navigationsBeforePay); // the refused try stayed on the page; only the pay left it
      expect(cspViolations).toEqual([]);
      for (const secret of [EXPIRY, CVV, BAD_NUMBER]) expect(bodies.join('\n'), secret).not.toContain(secret);
    } finally {
      await phone.close();
    }
  });

  it('without JavaScript: the server asks again keeping only the name', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await plain.newPage();
      const bodies = sandboxBodies(page);
      const refused = page.waitForResponse((response) => response.url().startsWith(`${sandbox.url}/sandbox/pay/`) && response.status() === 422);
      await payWith(page, BAD_NUMBER, false);
      await refused;
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Card number: enter 12 to 19 digits.');
      expect(await inputs(page)).toEqual({ number: '', expiry: '', cvv: '', name: 'Ana Lee' });
      expect(bodies.join('\n')).not.toContain(EXPIRY);

      await page.getByLabel('Card number').fill(TEST_CARDS.approved);
      await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY);
      await page.getByLabel('CVV').fill(CVV);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/return\?/);
      expect(await page.locator('dd[data-field="Result"]').textContent()).toBe('authorised');
    } finally {
      await plain.close();
    }
  });
});
