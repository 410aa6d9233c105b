// The checkout page's check (`sandbox_action=check`, what its script sends before paying) over real HTTP: every problem
// in JSON with the messages the server-side form check gives, no submitted value echoed, nothing about the order
// changed; and the page's CSP allows exactly the script it serves, by that script's hash.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS, startSandbox, type Sandbox } from '../src/index.ts';
import { cardForm, createAlternative, createCheckout, page } from './pages-harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
});

/** What a check answered, with the headers that matter. */
async function check(url: string, form: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, sandbox_action: 'check' }).toString(),
    redirect: 'manual',
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    type: response.headers.get('content-type'),
    cache: response.headers.get('cache-control'),
    csp: response.headers.get('content-security-policy'),
  };
}

/** Everything the sandbox keeps that a check could change: the orders (with their history), notifications, ledger. */
function snapshot(): string {
  const state = sandbox.state;
  return JSON.stringify([[...state.orders.values()], state.notifications, state.ledger], (_key, value: unknown) =>
    typeof value === 'bigint' ? String(value) : value,
  );
}

/** The texts of the problem list a page shows. */
function shownProblems(html: string): string[] {
  return [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
}

describe('the checkout page check', () => {
  it('answers every problem in JSON, with the form check’s messages, echoing no value it was sent', async () => {
    const order = await createCheckout(sandbox);
    const typed = { card_number: '4242 4242 42', expiry: '11/29', cvv: '9731', holder: 'Ana Lee' };
    const answer = await check(order.action, typed);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(answer.cache).toBe('no-store');
    expect(answer.csp).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(JSON.parse(answer.text)).toEqual({ problems: [{ field: 'card_number', message: 'Card number: enter 12 to 19 digits.' }] });
    for (const value of Object.values(typed)) expect(answer.text).not.toContain(value);

    const everything = { card_number: 'abc', expiry: '13/30', cvv: '12', holder: ' ' };
    const all = JSON.parse((await check(order.action, everything)).text) as { problems: { field: string; message: string }[] };
    expect(all.problems.map((p) => p.field)).toEqual(['card_number', 'expiry', 'cvv', 'holder']);
    // The same messages the page gives when the form is posted to pay without the script.
    const refused = await page(order.action, cardForm('abc', { expiry: '13/30', cvv: '12', holder: ' ' }));
    expect(refused.status).toBe(422);
    expect(all.problems.map((p) => p.message)).toEqual(shownProblems(refused.html));

    const past = JSON.parse((await check(order.action, { ...typed, card_number: TEST_CARDS.approved, expiry: '01/20' })).text);
    expect(past).toEqual({ problems: [{ field: 'expiry', message: 'Expiry: this date has passed.' }] });
  });

  it('changes nothing: a good entry answers no problems, the order stays pending and then pays as before', async () => {
    const order = await createCheckout(sandbox);
    const before = snapshot();
    const bad = await check(order.action, { card_number: '4111', expiry: '12/30', cvv: '123', holder: 'Ana Lee' });
    const good = await check(order.action, { card_number: TEST_CARDS.approved, expiry: '12/30', cvv: '123', holder: 'Ana Lee' });
    const declining = await check(order.action, { card_number: TEST_CARDS.insufficientFunds, expiry: '12/30', cvv: '123', holder: 'Ana Lee' });
    expect([bad.status, good.status, declining.status]).toEqual([200, 200, 200]);
    expect(JSON.parse(good.text)).toEqual({ problems: [] });
    expect(JSON.parse(declining.text)).toEqual({ problems: [] }); // a check says nothing about the card's outcome
    expect(snapshot()).toBe(before);
    const paid = await page(order.action, cardForm(TEST_CARDS.approved));
    expect(paid.status).toBe(303);
    expect(sandbox.state.orders.get(order.transactionId)?.state).toBe('authorised');
  });

  it('answers 409 with no problems for an order that takes no card entry, leaving it as it is', async () => {
    const order = await createCheckout(sandbox);
    await page(order.action, { sandbox_action: 'cancel' });
    const alternative = await createAlternative(sandbox);
    const before = snapshot();
    for (const url of [order.action, alternative.issuerUrl]) {
      const answer = await check(url, { card_number: TEST_CARDS.approved, expiry: '12/30', cvv: '123', holder: 'Ana Lee' });
      expect(answer.status).toBe(409);
      expect(JSON.parse(answer.text)).toMatchObject({ problems: [] });
    }
    expect(snapshot()).toBe(before);
    expect(sandbox.state.orders.get(alternative.transactionId)?.state).toBe('pending');
  });

  it('applies the form’s size limit', async () => {
    const order = await createCheckout(sandbox);
    const answer = await check(order.action, { card_number: TEST_CARDS.approved, holder: 'x'.repeat(70 * 1024) });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('larger than 65536 bytes');
  });
});

describe('the checkout page CSP', () => {
  it('allows exactly the script the page serves, by its SHA-256, and requests to the sandbox only', async () => {
    const order = await createCheckout(sandbox);
    const shown = await fetch(order.action);
    const refusedOnce = await fetch(order.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(cardForm('4111')).toString(),
    });
    for (const response of [shown, refusedOnce]) {
      const html = await response.text();
      const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(html).not.toMatch(/<script[^>]*\ssrc=/);
      const hash = createHash('sha256').update(scripts[0]!, 'utf8').digest('base64');
      expect(response.headers.get('content-security-policy')).toBe(
        `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; connect-src 'self'; frame-ancestors 'none'`,
      );
    }
  });

  it('runs no script on the other shopper pages', async () => {
    const alternative = await createAlternative(sandbox);
    const response = await fetch(alternative.issuerUrl);
    expect(await response.text()).not.toContain('<script');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  });
});
