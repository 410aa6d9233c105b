import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { authorisedOrder, cardPayment, orderNo, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

function stateOf(transactionId: string) {
  return sandbox.state.orders.get(transactionId)?.state;
}

describe('elements the sandbox cannot act on (UNKNOWNS U05)', () => {
  it('refuses a capture or cancel element without amount or currency on its own, and leaves its order alone', async () => {
    const order = await authorisedOrder(sandbox);
    const complete = await authorisedOrder(sandbox);
    const { amount: _a, ...noAmount } = order;
    const { currency: _c, ...noCurrency } = order;
    const capture = (await send(sandbox, 'capture', { capture_orders: [noAmount, noCurrency, complete] })).json;
    expect(capture.return_status).toBe('1');
    expect(capture.capture_orders.map((e: Record<string, string>) => [e.capture_status, e.error_message])).toEqual([
      ['0', 'E210:amount and currency are needed to act on an order (missing: amount)'],
      ['0', 'E210:amount and currency are needed to act on an order (missing: currency)'],
      ['1', ''],
    ]);
    expect(stateOf(order.transaction_id)).toBe('authorised');
    const cancel = (await send(sandbox, 'cancel', { cancel_orders: [{ transaction_id: order.transaction_id }] })).json;
    expect(cancel.cancel_orders[0]).toMatchObject({
      cancel_status: '0',
      error_message: 'E210:amount and currency are needed to act on an order (missing: amount, currency)',
    });
    expect(stateOf(order.transaction_id)).toBe('authorised');
  });

  it('refuses a refund element without currency, and refunds nothing', async () => {
    const order = await authorisedOrder(sandbox);
    await send(sandbox, 'capture', { capture_orders: [order] });
    const { currency: _c, ...noCurrency } = order;
    const refund = (await send(sandbox, 'refund', { refund_orders: [{ ...noCurrency, refund_amount: '10.00' }] })).json;
    expect(refund.refund_orders[0]).toMatchObject({ refund_status: '0', error_message: expect.stringMatching(/^E210:/) });
    expect(sandbox.state.orders.get(order.transaction_id)).toMatchObject({ state: 'captured', refunds: [] });
  });

  it('refuses a card or alternative payment without order_no, amount or currency, and creates no order', async () => {
    const before = sandbox.state.orders.size;
    const { currency: _c, ...noCurrency } = cardPayment();
    const card = await send(sandbox, 'authoriseCard', noCurrency);
    expect(card.status).toBe(200);
    expect(decodeCardRespon(card.text)).toMatchObject({ order_status: '0', result_info: expect.stringMatching(/^E004:currency missing/) });
    const alternative = await send(sandbox, 'authoriseAlternative', { currency: 'BRL', amount: '80.00', payment_method: 'PIX' });
    expect(alternative.text).toContain('E004:order_no missing');
    expect(sandbox.state.orders.size).toBe(before);
  });

  it('refuses a checkout without amount, and creates no order', async () => {
    const before = sandbox.state.orders.size;
    const reply = await send(sandbox, 'checkout', { order_no: orderNo('CHK'), currency: 'USD' });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ return_status: '0', return_message: expect.stringMatching(/^E004:amount missing/) });
    expect(sandbox.state.orders.size).toBe(before);
  });
});
