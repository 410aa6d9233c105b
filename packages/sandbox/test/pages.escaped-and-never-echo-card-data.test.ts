import { describe, expect, it } from 'vitest';
import { TEST_CARDS, type Sandbox } from '../src/index.ts';
import { cardForm, createAlternative, createCheckout, page, sandboxAndSinkForFile, type NotificationSink } from './pages-harness.ts';

let sandbox: Sandbox;
let sink: NotificationSink;
sandboxAndSinkForFile((started, listening) => {
  sandbox = started;
  sink = listening;
});

const HOSTILE = `<script>alert("x")</script>"'><img src=x onerror=alert(1)>`;

describe('the shopper pages', () => {
  it('escape every value from the request or the form', async () => {
    const order = await createCheckout(sandbox, { first_name: HOSTILE, cart_items: [{ basic_item_data: { name: HOSTILE, quantity: '1' } }] });
    const refused = (await page(order.action, cardForm('4242', { holder: HOSTILE }))).html; // the name is written back
    for (const html of [(await page(order.action)).html, (await page(order.action, { ...order.hidden, last_name: HOSTILE })).html, refused]) {
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&#39;&gt;&lt;img src=x onerror=alert(1)&gt;');
    }
    const alternative = await createAlternative(sandbox, { payment_method: HOSTILE });
    const issuer = (await page(alternative.issuerUrl)).html;
    expect(issuer).not.toContain('<script>alert');
    expect(issuer).toContain('&lt;script&gt;');
  });

  it('never show, notify, keep or redirect with the card number, CVV or expiry the shopper typed', async () => {
    const card = '4242424242424242';
    const secrets = [card, '4242 4242 4242 4242', '9731', '11/29'];
    const seen: string[] = [];
    for (const typed of [TEST_CARDS.threeDsRequired, card]) {
      const order = await createCheckout(sandbox, { notify_url: sink.url });
      const paid = await page(order.action, cardForm(typed === card ? '4242 4242 4242 4242' : typed, { cvv: '9731', expiry: '11/29' }));
      seen.push(paid.html, paid.location ?? '');
      if (paid.location?.startsWith('/sandbox/3ds/')) {
        const challenge = await page(`${sandbox.url}${paid.location}`);
        const done = await page(`${sandbox.url}${paid.location}`, { sandbox_action: 'complete' });
        seen.push(challenge.html, done.html, done.location ?? '');
      }
      seen.push((await page(order.action)).html);
    }
    const bad = await page((await createCheckout(sandbox)).action, cardForm('4242 4242 42', { cvv: '9731', expiry: '11/29', holder: 'Ana Lee' }));
    seen.push(bad.html);
    // What the shopper typed that is not card data stays in the form after the refusal.
    expect(bad.html).toContain('value="Ana Lee"');
    await sandbox.notificationsIdle();
    seen.push(
      ...sink.raw,
      JSON.stringify([...sandbox.state.orders.values()], (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
    const text = seen.join('\n');
    // Each typed value as it would stand if echoed (not as digits inside a random id or token, which may hold any run).
    for (const secret of secrets) expect(text, secret).not.toMatch(new RegExp(`(?<![0-9A-Za-z_-])${secret}(?![0-9A-Za-z_-])`));
    expect(text).toContain('424242******4242');
    expect(sink.raw.join('\n')).toContain('424242******4242'); // the notifications were delivered, and checked above
  });
});
