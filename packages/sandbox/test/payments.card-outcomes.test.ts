import { createSignableMessage } from '@gw/signer-interface';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_NEEDS_3DS_RESULT, DECLINE_CENTS, TEST_CARDS, startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, send, signer } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function pay(overrides: Record<string, unknown>) {
  const reply = await send(sandbox, 'authoriseCard', cardPayment(overrides));
  expect(reply.status).toBe(200);
  expect(reply.contentType).toContain('application/xml');
  return decodeCardRespon(reply.text);
}

describe('card payments (/v1/authorise, card variant)', () => {
  it('authorises a good card: transaction id, masked card, success result, risk and signature', async () => {
    const respon = await pay({ card: TEST_CARDS.approved, amount: '129.90' });
    expect(respon).toMatchObject({
      order_status: '1',
      result_info: '0000:Success',
      card: '411111******1111',
      amount: '129.90',
      currency: 'USD',
      risk_action: 'ACCEPT',
    });
    expect(respon.transaction_id).toMatch(/^T\d{16}$/);
    expect(typeof respon.risk_score).toBe('number');
    const { encryption_data, ...unsigned } = respon;
    const message = createSignableMessage({ operation: 'authoriseCard', record: unsigned, body: '' });
    expect(signer.verify(message, encryption_data!)).toBe(true);
    expect(sandbox.state.orders.get(respon.transaction_id!)?.state).toBe('authorised');
  });

  it('declines the decline test card and amounts ending in .' + DECLINE_CENTS, async () => {
    expect(await pay({ card: TEST_CARDS.declined })).toMatchObject({ order_status: '0', result_info: '2001:Card declined' });
    expect(await pay({ amount: `10.${DECLINE_CENTS}` })).toMatchObject({ order_status: '0', result_info: '2005:Do not honour' });
  });

  it('rejects the risk test card with risk_action REJECT and a reason', async () => {
    const respon = await pay({ card: TEST_CARDS.riskReject });
    expect(respon).toMatchObject({ order_status: '0', risk_action: 'REJECT', risk_score: 95, risk_reasons: { name: 'velocity', status: 'REJECT' } });
    expect(sandbox.state.orders.get(respon.transaction_id!)?.state).toBe('declined');
  });

  it('runs 3-D Secure when open3d is do3DS; the challenge test card without it is declined', async () => {
    expect(await pay({ open3d: 'do3DS' })).toMatchObject({ order_status: '1', threeds_result: 'AUTHENTICATED' });
    expect(await pay({ card: TEST_CARDS.threeDsRequired })).toMatchObject({ order_status: '0', result_info: CHALLENGE_NEEDS_3DS_RESULT });
  });

  it('creates a subscription for a payment carrying `subscription`', async () => {
    const respon = await pay({ subscription: { contract_name: 'Gold', interval: 'day', interval_count: '30', billing_cycle: 12 } });
    expect(respon).toMatchObject({ contract_name: 'Gold', recurring_deduction_period: '30 day' });
    expect(sandbox.state.subscriptions.get(respon.recurring_id!)?.status).toBe('1');
  });

  it('refuses a second payment with the same order_no on the account', async () => {
    const first = await pay({ order_no: 'DUP-1' });
    const second = await pay({ order_no: 'DUP-1' });
    expect(first.order_status).toBe('1');
    expect(second).toMatchObject({ order_status: '0', result_info: expect.stringMatching(/^1001:/) });
  });

  it('never keeps the card number, security code or expiry in its state', async () => {
    const respon = await pay({ card: '4111111111111111', security_code: 'Z987Q' });
    const stored = JSON.stringify(sandbox.state.orders.get(respon.transaction_id!), (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(stored).not.toContain('4111111111111111');
    expect(stored).not.toContain('Z987Q');
  });
});
