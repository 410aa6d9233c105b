import { randomUUID } from 'node:crypto';
import type { Sandbox } from '@gw/sandbox';
import { payoutRequest } from '@gw/test-support';
import { describe, expect, it } from 'vitest';
import { exactNumber, type GwClient } from '../src/index.ts';
import { authorisedOrder, cardPayment, orderNo, sandboxClient, withSandboxClient } from './support.ts';

let sandbox: Sandbox;
let client: GwClient;
withSandboxClient((s, c) => {
  sandbox = s;
  client = c;
});

describe('payments', () => {
  it('authoriseCard: fills the merchant, signs, decodes the verified respon', async () => {
    const payment = cardPayment({ amount: '129.90', open3d: 'do3DS' });
    const respon = await client.authoriseCard(payment);
    expect(respon).toMatchObject({
      merchant_id: 'M100200',
      account_id: 'A300400',
      order_no: payment.order_no,
      amount: '129.90',
      currency: 'USD',
      order_status: '1',
      result_info: '0000:Success',
      card: '411111******1111',
      threeds_result: 'AUTHENTICATED',
      risk_action: 'ACCEPT',
    });
    expect(typeof respon.risk_score).toBe('number');
    expect(respon.transaction_id).toMatch(/^T\d{16}$/);
    expect(respon.encryption_data).toMatch(/^[0-9a-f]{64}$/);
    expect(sandbox.state.orders.get(respon.transaction_id!)?.state).toBe('authorised');
  });

  it('authoriseCard: a decline is a result, not an error (UNKNOWNS U47)', async () => {
    const respon = await client.authoriseCard(cardPayment({ card: '4000000000000002' }));
    expect(respon).toMatchObject({ order_status: '0', result_info: '2001:Card declined' });
  });

  it('authoriseAlternative: answers issuer_url, signature verified when present', async () => {
    const order = orderNo('ALT');
    const respon = await client.authoriseAlternative({
      order_no: order,
      currency: 'BRL',
      amount: '80.00',
      payment_method: 'PIX',
      return_url: 'https://shop.example.test/back',
      person: { document_number: '123', documents: { labels: { bank_account: { bank: { code: '341' } } } } },
    });
    expect(respon).toMatchObject({ order_no: order, amount: '80.00', currency: 'BRL' });
    expect(respon.issuer_url).toMatch(new RegExp(`^${sandbox.url}/sandbox/pay/[A-Za-z0-9_-]{22}$`));
    expect([...sandbox.state.orders.values()].find((o) => o.orderNo === order)?.variant).toBe('alternative');
  });

  it('checkout: answers the decoded page and its HTML', async () => {
    const order = orderNo('CHK');
    const page = await client.checkout({
      order_no: order,
      currency: 'USD',
      amount: '59.90',
      return_url: 'https://shop.example.test/ok',
      cart_items: [{ basic_item_data: { name: 'Mug & "Cup"', quantity: '2', price: { amount_usd: 9.95 } } }],
    });
    expect(page.method).toBe('POST');
    expect(page.autoSubmit).toBe(true);
    expect(page.action).toMatch(new RegExp(`^${sandbox.url}/sandbox/pay/[A-Za-z0-9_-]{22}$`));
    expect(page.fields).toMatchObject({ order_no: order, orderNo: order, orderAmount: '59.90', merNo: 'M100200', returnUrl: 'https://shop.example.test/ok' });
    expect(JSON.parse(page.fields.cart_items!)).toEqual([{ basic_item_data: { name: 'Mug & "Cup"', quantity: '2', price: { amount_usd: 9.95 } } }]);
    expect(page.html).toContain('<form');
    expect(page.allParams?.params.order_no).toBe(order);
  });
});

describe('order operations', () => {
  it('capture, then refund in part, then query shows the state', async () => {
    const order = await authorisedOrder(client, '50.00');
    const captured = await client.capture({ capture_orders: [order] });
    expect(captured).toMatchObject({ return_status: '1', return_message: 'OK', capture_orders: [{ ...order, capture_status: '1', error_message: '' }] });
    const refunded = await client.refund({ refund_orders: [{ ...order, refund_amount: '20.00', refund_reason: 'damaged' }] });
    expect(refunded.refund_orders?.[0]).toMatchObject({
      refund_status: '1',
      refund_message: '0000:Success',
      refund_reference_id: `${order.transaction_id}-01`,
    });
    const queried = await client.query({ transaction_id: [order.transaction_id] });
    expect(queried).toMatchObject({ return_status: '1', orders_list: [{ transaction_id: order.transaction_id, payment_status: '3002', query_result: '1' }] });
  });

  it('element failures are results: capturing twice answers capture_status 0 for the element', async () => {
    const order = await authorisedOrder(client);
    await client.capture({ capture_orders: [order] });
    const again = await client.capture({ capture_orders: [order] });
    expect(again.return_status).toBe('1');
    expect(again.capture_orders?.[0]).toMatchObject({ capture_status: '0', error_message: expect.stringMatching(/^[A-Z0-9]+:/) });
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
  });

  it('review approves (flag 1) and rejects (flag 0)', async () => {
    const approve = await authorisedOrder(client);
    const reject = await authorisedOrder(client);
    const reviewed = await client.review({
      review_orders: [
        { ...approve, review_flag: '1' },
        { ...reject, review_flag: '0' },
      ],
    });
    expect(reviewed.review_orders?.map((o) => o.review_status)).toEqual(['1', '1']);
    expect(sandbox.state.orders.get(approve.transaction_id)?.state).toBe('authorised');
    expect(sandbox.state.orders.get(reject.transaction_id)?.state).toBe('cancelled');
  });

  it('cancel', async () => {
    const order = await authorisedOrder(client);
    const cancelled = await client.cancel({ cancel_orders: [order] });
    expect(cancelled.cancel_orders?.[0]).toMatchObject({ ...order, cancel_status: '1' });
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('cancelled');
  });

  it('query takes lists or the comma-joined form, by order_no and transaction_id', async () => {
    const a = await authorisedOrder(client);
    const b = await authorisedOrder(client);
    const byLists = await client.query({ order_no: [a.order_no], transaction_id: [b.transaction_id] });
    expect(byLists.orders_list?.map((o) => o.transaction_id).sort()).toEqual([a.transaction_id, b.transaction_id].sort());
    const byString = await client.query({ order_no: `${a.order_no},${b.order_no},UNKNOWN-1` });
    expect(byString.orders_list).toHaveLength(3);
    expect(byString.orders_list?.[2]).toEqual({ order_no: 'UNKNOWN-1', query_result: '0' });
  });
});

describe('subscription and payout', () => {
  it('cancelSubscription (XML body) makes the subscription Inactived', async () => {
    const respon = await client.authoriseCard(
      cardPayment({ subscription: { contract_name: 'Gold', interval: 'day', interval_count: '30', billing_cycle: 12 } }),
    );
    const cancelled = await client.cancelSubscription({ recurring_id: respon.recurring_id, contract_name: 'Gold' });
    expect(cancelled).toMatchObject({ recurring_id: respon.recurring_id, contract_name: 'Gold', cancel_status: '1', error_message: '' });
    expect(sandbox.state.subscriptions.get(respon.recurring_id!)?.status).toBe('Inactived');
  });

  it('payout: numbers typed as numbers, their wire text kept (UNKNOWNS U15)', async () => {
    const requestId = randomUUID();
    const payout = await client.payout(payoutRequest(requestId));
    expect(payout).toMatchObject({
      request_id: requestId,
      status: 'COMPLETED',
      amount_beneficiary_receives: 250,
      fee_amount: 0,
      beneficiary: { bank_details: { local_clearing_system: 'ACH' } },
    });
    expect(exactNumber(payout, 'amount_beneficiary_receives')).toBe('250');
    expect(exactNumber(payout, 'status')).toBeUndefined();
    expect(sandbox.state.appliedCounts('payout').get(requestId)).toBe(1);
  });
});

it('the sandbox saw no internal error and no broken invariant', () => {
  expect(sandbox.state.internalErrors).toEqual([]);
  expect(sandbox.state.invariantViolations()).toEqual([]);
});
