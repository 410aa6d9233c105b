import { decodeAlternativeRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, orderNo, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('the sandbox pay page', () => {
  it('answers a malformed percent-encoded payment token with 400, not 500', async () => {
    const reply = await fetch(`${sandbox.url}/sandbox/pay/%E0%A4%A`);
    expect(reply.status).toBe(400);
    expect(sandbox.state.internalErrors).toEqual([]);
  });

  it('after the shopper acts, redirects to a return_url holding characters a header cannot carry, percent-encoded', async () => {
    const respon = decodeAlternativeRespon(
      (
        await send(sandbox, 'authoriseAlternative', {
          order_no: orderNo('ALT'),
          currency: 'BRL',
          amount: '8.00',
          payment_method: 'PIX',
          return_url: 'https://shop.example.test/voltar/café 中',
        })
      ).text,
    );
    const page = await fetch(respon.issuer_url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'sandbox_action=approve',
      redirect: 'manual',
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(/^https:\/\/shop\.example\.test\/voltar\/caf%C3%A9%20%E4%B8%AD\?transaction_id=/);
    expect(sandbox.state.internalErrors).toEqual([]);
  });

  it('answers an unknown payment with 404, another method with 405, and a direct card payment has no pay page', async () => {
    for (const path of ['/sandbox/pay/T0000000000000000', '/sandbox/pay/', '/sandbox/3ds/nothing'])
      expect((await fetch(`${sandbox.url}${path}`)).status).toBe(404);
    const respon = decodeAlternativeRespon(
      (await send(sandbox, 'authoriseAlternative', { order_no: orderNo('ALT'), currency: 'BRL', amount: '8.00', payment_method: 'PIX' })).text,
    );
    const put = await fetch(respon.issuer_url!, { method: 'PUT', body: 'sandbox_action=approve' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST']);
    const card = await send(sandbox, 'authoriseCard', cardPayment());
    const transactionId = /<transaction_id>([^<]+)</.exec(card.text)![1]!;
    expect((await fetch(`${sandbox.url}/sandbox/pay/${transactionId}`)).status).toBe(404);
    expect(sandbox.state.internalErrors).toEqual([]);
  });
});
