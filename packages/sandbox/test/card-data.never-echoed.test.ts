import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeCheckoutPage } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { orderNo, send } from './harness.ts';

const CARD = '4111111111111111';
const CVV = '9731';
const CARD_DATA = { card: CARD, security_code: CVV, expiration_month: '11', expiration_year: '2039' };
const SECRET_NAMES = ['card', 'security_code', 'expiration_month', 'expiration_year'];

let sandbox: Sandbox;
let receiver: Server;
let notifyUrl = '';
const received: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ notify: { attempts: 1, timeoutMs: 1000 } });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;
});
afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

function everythingShown(reply: string): string {
  const state = JSON.stringify(
    {
      orders: [...sandbox.state.orders.values()],
      payouts: [...sandbox.state.payouts.values()],
      payoutParameters: [...sandbox.state.payoutParameters.values()],
      requests: sandbox.state.requests,
      notifications: sandbox.state.notifications,
      errors: sandbox.state.internalErrors,
    },
    (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value),
  );
  return [reply, state, ...received].join('\n');
}

describe('card number, security code and expiry are never echoed (defence in depth)', () => {
  it('keeps them out of the checkout page, its allParams, the notification and the state, even when a checkout carries them', async () => {
    const reply = await send(sandbox, 'checkout', { order_no: orderNo('CHK'), currency: 'USD', amount: '10.00', notify_url: notifyUrl, ...CARD_DATA });
    await sandbox.notificationsIdle(3000);
    expect(reply.status).toBeLessThan(500);
    if (reply.status === 200) {
      const page = decodeCheckoutPage(reply.text);
      expect(page.entries.map(([name]) => name).filter((name) => SECRET_NAMES.includes(name))).toEqual([]);
      expect((page.allParams?.entries ?? []).map(([name]) => name).filter((name) => SECRET_NAMES.includes(name))).toEqual([]);
    }
    const shown = everythingShown(reply.text);
    expect(shown).not.toContain(CARD);
    expect(shown).not.toContain(CVV);
  });

  it('keeps them out of a payout answer, its notification and the state', async () => {
    const reply = await send(sandbox, 'payout', {
      request_id: randomUUID(),
      payment_amount: '5.00',
      payment_currency: 'USD',
      notify_url: notifyUrl,
      ...CARD_DATA,
      beneficiary: { first_name: 'Ana', ...CARD_DATA },
    });
    await sandbox.notificationsIdle(3000);
    expect(reply.status).toBeLessThan(500);
    const shown = everythingShown(reply.text);
    expect(shown).not.toContain(CARD);
    expect(shown).not.toContain(CVV);
  });

  it('shows only the masked card in a card payment answer and its notification', async () => {
    const reply = await send(sandbox, 'authoriseCard', { order_no: orderNo('CARD'), currency: 'USD', amount: '10.00', notify_url: notifyUrl, ...CARD_DATA });
    await sandbox.notificationsIdle(3000);
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('411111******1111');
    expect(received.some((body) => body.includes('411111******1111'))).toBe(true);
    const shown = everythingShown(reply.text);
    expect(shown).not.toContain(CARD);
    expect(shown).not.toContain(CVV);
  });
});
