import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PAYMENT_STATUS, startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function pay(overrides: Record<string, unknown> = {}) {
  const payment = cardPayment(overrides);
  const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', payment)).text);
  return { transaction_id: respon.transaction_id!, order_no: String(payment.order_no), currency: 'USD', amount: String(payment.amount) };
}

describe('query (/v1/retrievalTrans, form-encoded)', () => {
  it('returns the 2.5 record of each selected order, by order_no or transaction_id, with the sandbox state as payment_status', async () => {
    const a = await pay({ shopper_email: 'a@example.test', delivery_city: 'Lisbon', 'the service': 'shop.example' });
    const b = await pay();
    await send(sandbox, 'capture', { capture_orders: [b] });
    const reply = await send(sandbox, 'query', { order_no: a.order_no, transaction_id: b.transaction_id });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ return_status: '1', return_message: 'OK' });
    const [first, second] = reply.json.orders_list;
    expect(first).toMatchObject({
      order_no: a.order_no,
      transaction_id: a.transaction_id,
      amount: '100.00',
      query_result: '1',
      payment_status: SANDBOX_PAYMENT_STATUS.authorised,
      shopper_email: 'a@example.test',
      'the service': 'shop.example',
      delivery_information: { delivery_city: 'Lisbon' },
      is3ds: '0',
    });
    expect(first.transaction_date).toMatch(/^\d{14}$/);
    expect(second).toMatchObject({ transaction_id: b.transaction_id, payment_status: SANDBOX_PAYMENT_STATUS.captured });
  });

  it('answers 100 orders in one request and echoes unknown values with query_result 0', async () => {
    const orders = await Promise.all(Array.from({ length: 99 }, () => pay()));
    const reply = await send(sandbox, 'query', { order_no: [...orders.map((o) => o.order_no), 'UNKNOWN-1'].join(',') });
    expect(reply.json.orders_list).toHaveLength(100);
    expect(reply.json.orders_list.at(-1)).toEqual({ order_no: 'UNKNOWN-1', query_result: '0' });
  });

  it('refuses 101 values as a format problem', async () => {
    const reply = await send(sandbox, 'query', { order_no: Array.from({ length: 101 }, (_, i) => `O${i}`).join(',') });
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toEqual([{ path: 'order_no', message: expect.stringContaining('does not match') }]);
  });

  it('answers only callers whose IP address is allow-listed', async () => {
    await using other = await startSandbox({ allowIps: ['10.1.2.3'] });
    const reply = await send(other, 'query', { order_no: 'X' });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ return_status: '0', return_message: expect.stringContaining('127.0.0.1 is not registered') });
  });
});
