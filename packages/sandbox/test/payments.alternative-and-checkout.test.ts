import { checkoutForm } from '@gw/types';
import { decodeAlternativeRespon, decodeCheckoutPage } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { orderNo, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('alternative-method payments', () => {
  it('answers a respon with issuer_url leading to the issuer page; the order waits pending for the shopper', async () => {
    const order = orderNo('ALT');
    const reply = await send(sandbox, 'authoriseAlternative', {
      order_no: order,
      currency: 'BRL',
      amount: '80.00',
      payment_method: 'PIX',
      return_url: 'https://shop.example.test/back',
    });
    expect(reply.status).toBe(200);
    const respon = decodeAlternativeRespon(reply.text);
    expect(respon).toMatchObject({ order_no: order, amount: '80.00', currency: 'BRL' });
    expect(respon.issuer_url).toMatch(new RegExp(`^${sandbox.url}/sandbox/pay/[A-Za-z0-9_-]{22}$`));
    const page = await fetch(respon.issuer_url!, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('>Approve</button>');
    const stored = [...sandbox.state.orders.values()].find((o) => o.orderNo === order);
    expect(stored).toMatchObject({ variant: 'alternative', state: 'pending' });
  });
});

describe('hosted checkout', () => {
  it('answers an auto-submitting page carrying every hidden field of the catalogue, allParams included', async () => {
    const order = orderNo('CHK');
    const request = {
      order_no: order,
      currency: 'USD',
      amount: '59.90',
      first_name: 'Ana',
      notify_url: 'https://shop.example.test/notify',
      return_url: 'https://shop.example.test/ok',
      cancel_url: 'https://shop.example.test/cancel',
      'the service': 'shop.example.test',
      cart_items: [{ basic_item_data: { name: 'Mug & "Cup"', quantity: '2' } }],
    };
    const reply = await send(sandbox, 'checkout', request);
    expect(reply.status).toBe(200);
    expect(reply.contentType).toContain('text/html');
    const page = decodeCheckoutPage(reply.text);
    expect(page.method).toBe('POST');
    expect(page.autoSubmit).toBe(true);
    expect(page.action).toMatch(new RegExp(`^${sandbox.url}/sandbox/pay/[A-Za-z0-9_-]{22}$`));
    const names = new Set(page.entries.map(([name]) => name));
    const catalogue = [...checkoutForm.routingFields, ...Object.keys(checkoutForm.aliases), ...checkoutForm.extraFields];
    expect(catalogue.filter((name) => !names.has(name))).toEqual([]);
    expect(page.fields).toMatchObject({
      order_no: order,
      orderNo: order,
      amount: '59.90',
      orderAmount: '59.90',
      merNo: 'M100200',
      gatewayNo: 'A300400',
      firstName: 'Ana',
      returnUrl: 'https://shop.example.test/ok',
      'the service': 'shop.example.test',
    });
    expect(JSON.parse(page.fields.cart_items!)).toEqual(request.cart_items);
    expect(page.allParams?.params).toMatchObject({ order_no: order, orderAmount: '59.90', cancel_url: 'https://shop.example.test/cancel' });
  });

  it('refuses a checkout reusing an order number', async () => {
    const order = orderNo('CHK');
    expect((await send(sandbox, 'checkout', { order_no: order, amount: '1.00', currency: 'USD' })).status).toBe(200);
    const again = await send(sandbox, 'checkout', { order_no: order, amount: '1.00', currency: 'USD' });
    expect(again.status).toBe(409);
    expect(again.json.return_message).toMatch(/^1001:/);
  });
});
