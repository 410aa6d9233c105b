// The shopper's pages live at a token of at least 128 random bits, never at the (sequential) transaction id: a page
// that counts up transaction ids cannot approve another shopper's pending order.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS, startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, send } from './harness.ts';
import { createAlternative, createCheckout, page } from './pages-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-pay-token-'));
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The token of a shopper page's URL, checked to be base64url of at least 16 bytes. */
function tokenOf(url: string, prefix: '/sandbox/pay/' | '/sandbox/3ds/'): string {
  const { pathname, search } = new URL(url);
  expect(pathname.startsWith(prefix)).toBe(true);
  expect(search).toBe('');
  const token = pathname.slice(prefix.length);
  expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
  return token;
}

describe('the pay URL of a checkout or alternative-method answer', () => {
  it('holds a token of at least 128 bits and no transaction id; each order has its own', async () => {
    const orders = [await createCheckout(sandbox), await createCheckout(sandbox), await createAlternative(sandbox), await createAlternative(sandbox)];
    const urls = orders.map((o) => ('action' in o ? o.action : o.issuerUrl));
    const tokens = urls.map((url) => tokenOf(url, '/sandbox/pay/'));
    expect(new Set(tokens).size).toBe(tokens.length);
    orders.forEach((order, i) => {
      expect(urls[i]).not.toContain(order.transactionId);
      expect(urls[i]).not.toContain(order.transactionId.slice(-8));
      expect(sandbox.state.orders.get(order.transactionId)?.payToken).toBe(tokens[i]);
    });
  });

  it('answers 404 at the transaction id path and at a guessed token; the real one shows the page and settles the order', async () => {
    const order = await createAlternative(sandbox);
    const token = tokenOf(order.issuerUrl, '/sandbox/pay/');
    const approve = { sandbox_action: 'approve' };
    const guesses = [
      order.transactionId,
      encodeURIComponent(order.transactionId),
      randomBytes(16).toString('base64url'),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(),
      `${token}/`,
      `${token}x`,
    ];
    for (const guess of guesses) {
      for (const prefix of ['/sandbox/pay/', '/sandbox/3ds/']) {
        expect((await page(`${sandbox.url}${prefix}${guess}`)).status, `${prefix}${guess}`).toBe(404);
        expect((await page(`${sandbox.url}${prefix}${guess}`, approve)).status, `POST ${prefix}${guess}`).toBe(404);
      }
    }
    expect(sandbox.state.orders.get(order.transactionId)?.state).toBe('pending');
    const shown = await page(order.issuerUrl);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(`action="/sandbox/pay/${token}"`);
    expect(shown.html).not.toContain(order.transactionId);
    expect((await page(order.issuerUrl, approve)).status).toBe(303);
    expect(sandbox.state.orders.get(order.transactionId)?.state).toBe('authorised');
  });

  it('gives a challenged card payment its challenge page at a token too, never at the transaction id', async () => {
    const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ card: TEST_CARDS.threeDsRequired, open3d: 'do3DS' }))).text) as Record<
      string,
      any
    >;
    const token = tokenOf(respon.challenge_url, '/sandbox/3ds/');
    expect(respon.challenge_url).not.toContain(respon.transaction_id);
    expect((await page(`${sandbox.url}/sandbox/3ds/${respon.transaction_id}`, { sandbox_action: 'complete' })).status).toBe(404);
    expect(sandbox.state.orders.get(respon.transaction_id)?.state).toBe('pending');
    expect((await page(`${sandbox.url}/sandbox/3ds/${token}`, { sandbox_action: 'complete' })).status).toBe(200);
    expect(sandbox.state.orders.get(respon.transaction_id)?.state).toBe('authorised');
  });
});

describe('a pay token in a state file (--state)', () => {
  it('still opens the page after a restart', async () => {
    const file = join(dir, 'restart.sqlite');
    const first = await startSandbox({ stateFile: file });
    const order = await createCheckout(first);
    const path = new URL(order.action).pathname;
    await first.stop();
    await using second = await startSandbox({ stateFile: file });
    expect(second.state.orders.get(order.transactionId)?.payToken).toBe(path.slice('/sandbox/pay/'.length));
    const shown = await page(`${second.url}${path}`);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Card details');
    expect((await page(`${second.url}/sandbox/pay/${order.transactionId}`)).status).toBe(404);
    expect((await page(`${second.url}${path}`, { sandbox_action: 'cancel' })).status).toBe(303);
    expect(second.state.orders.get(order.transactionId)?.state).toBe('cancelled');
  });

  it('gives an order written before pay tokens one at load, kept across the next restart', async () => {
    const file = join(dir, 'older.sqlite');
    const first = await startSandbox({ stateFile: file });
    const order = await createAlternative(first);
    await send(first, 'authoriseCard', cardPayment());
    await first.stop();
    // As a sandbox before pay tokens wrote the file: the orders' bodies without the member.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(file);
    for (const row of db.prepare('SELECT key, body FROM orders').all() as { key: string; body: string }[]) {
      const { payToken: _dropped, ...older } = JSON.parse(row.body) as Record<string, unknown>;
      db.prepare('UPDATE orders SET body = ? WHERE key = ?').run(JSON.stringify(older), row.key);
    }
    db.close();

    const second = await startSandbox({ stateFile: file });
    const token = second.state.orders.get(order.transactionId)?.payToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(token).not.toBe(new URL(order.issuerUrl).pathname.slice('/sandbox/pay/'.length));
    expect([...second.state.orders.values()].filter((o) => o.variant === 'card').map((o) => o.payToken)).toEqual([null]);
    expect((await page(`${second.url}/sandbox/pay/${token}`)).status).toBe(200);
    expect((await page(`${second.url}/sandbox/pay/${order.transactionId}`)).status).toBe(404);
    await second.stop();
    await using third = await startSandbox({ stateFile: file });
    expect(third.state.orders.get(order.transactionId)?.payToken).toBe(token);
    expect((await page(`${third.url}/sandbox/pay/${token}`, { sandbox_action: 'approve' })).status).toBe(303);
  });
});
