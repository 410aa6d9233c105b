import { readFileSync } from 'node:fs';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_ORDER_STATUS, TEST_CARD_TABLE, startSandbox, testCardsMarkdown, type Sandbox } from '../src/index.ts';
import { cardPayment, send } from './harness.ts';
import { cardForm, createCheckout, page } from './pages-harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

/** The direct payment's outcome: approve / decline / challenge and its result_info (after a passed challenge). */
async function direct(card: string, amount: string): Promise<[string, string]> {
  const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ card, amount, open3d: 'do3DS' }))).text) as Record<string, any>;
  if (respon.order_status !== CHALLENGE_ORDER_STATUS) return [respon.order_status === '1' ? 'approve' : 'decline', respon.result_info];
  const done = await page(respon.challenge_url, { sandbox_action: 'complete' });
  expect(done.status).toBe(200);
  return ['challenge', sandbox.state.orders.get(respon.transaction_id)!.resultInfo];
}

/** The hosted page's outcome for the same card and amount. */
async function hosted(card: string, amount: string): Promise<[string, string] | 'asks again'> {
  const order = await createCheckout(sandbox, { amount });
  const paid = await page(order.action, cardForm(card));
  if (paid.status === 422) return 'asks again';
  let back = new URL(paid.location!, sandbox.url);
  let behaviour = 'approve';
  if (back.pathname.startsWith('/sandbox/3ds/')) {
    behaviour = 'challenge';
    back = new URL((await page(back.href, { sandbox_action: 'complete' })).location!);
  } else if (back.searchParams.get('result') !== 'authorised') behaviour = 'decline';
  return [behaviour, back.searchParams.get('result_info')!];
}

describe('the test-card table', () => {
  it.each(TEST_CARD_TABLE.map((row) => [row.card, row] as const))(
    '%s: the same outcome in a direct card payment and on the hosted page',
    async (_name, row) => {
      const expected: [string, string] = [row.behaviour, row.resultInfo];
      expect(await direct(row.example.card, row.example.amount)).toEqual(expected);
      // A number that is no card number is a typing mistake on the hosted page: it asks again instead of declining.
      expect(await hosted(row.example.card, row.example.amount)).toEqual(row.example.card.length < 12 ? 'asks again' : expected);
    },
  );

  it('is the table in the sandbox README, and every card number is listed on the checkout page', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(testCardsMarkdown());
    const order = await createCheckout(sandbox);
    const html = (await page(order.action)).html;
    for (const row of TEST_CARD_TABLE) expect(html).toContain(row.isNumber ? `<code>${row.card}</code>` : row.card);
  });
});
