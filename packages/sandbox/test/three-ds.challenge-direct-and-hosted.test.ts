import { decodeCardRespon } from '@gw/xml-codec';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_FAILED_RESULT, CHALLENGE_ORDER_STATUS, SANDBOX_PAYMENT_STATUS, TEST_CARDS, type Sandbox } from '../src/index.ts';
import { cardPayment, send } from './harness.ts';
import { cardForm, createCheckout, page, sandboxAndSinkForFile, type NotificationSink } from './pages-harness.ts';

let sandbox: Sandbox;
let sink: NotificationSink;
sandboxAndSinkForFile((started, listening) => {
  sandbox = started;
  sink = listening;
});

describe('a direct card payment with open3d=do3DS and the challenge card (UNKNOWNS U17)', () => {
  it.each([
    ['complete', 'authorised', '1', 'CHALLENGE_PASSED', '0000:Success'],
    ['fail', 'declined', '0', 'CHALLENGE_FAILED', CHALLENGE_FAILED_RESULT],
  ] as const)('answers order_status 2 and a challenge_url; %s makes it %s, notified then', async (action, state, orderStatus, threeds, resultInfo) => {
    const reply = await send(sandbox, 'authoriseCard', cardPayment({ card: TEST_CARDS.threeDsRequired, open3d: 'do3DS', notify_url: sink.url }));
    const respon = decodeCardRespon(reply.text) as Record<string, any>;
    expect(respon).toMatchObject({
      order_status: CHALLENGE_ORDER_STATUS,
      threeds_result: 'CHALLENGE_REQUIRED',
      challenge_url: expect.stringMatching(new RegExp(`^${sandbox.url}/sandbox/3ds/[A-Za-z0-9_-]{22}$`)),
    });
    expect(respon.challenge_url).not.toContain(respon.transaction_id);
    const orderNo = respon.order_no as string;
    expect((await send(sandbox, 'query', { order_no: orderNo })).json.orders_list[0].payment_status).toBe(SANDBOX_PAYMENT_STATUS.pending);
    await sandbox.notificationsIdle();
    expect(sink.bodies.filter((b) => b.order_no === orderNo)).toEqual([]);
    const shown = await page(respon.challenge_url);
    expect(shown.html).toContain('>Complete</button>');
    expect(shown.html).toContain('400000******3220');
    // A direct payment carries no return_url: the page states the result; the merchant learns it by notification or query.
    const done = await page(respon.challenge_url, { sandbox_action: action });
    expect(done.status).toBe(200);
    expect(done.html).toContain(state === 'authorised' ? 'Payment authorised' : 'Payment declined');
    expect((await send(sandbox, 'query', { order_no: orderNo })).json.orders_list[0]).toMatchObject({
      payment_status: SANDBOX_PAYMENT_STATUS[state],
      is3ds: '1',
    });
    await sandbox.notificationsIdle();
    expect(sink.bodies.filter((b) => b.order_no === orderNo)).toEqual([
      expect.objectContaining({ order_status: orderStatus, threeds_result: threeds, result_info: resultInfo, card: '400000******3220' }),
    ]);
    expect(sink.events.filter((e) => (e.data as { order_no?: string }).order_no === orderNo).map((e) => e.kind)).toEqual([`payment.${state}`]);
    expect(sink.refused).toEqual([]);
  });
});

describe('the challenge card on the hosted page', () => {
  it('goes through the challenge page, then to return_url with the challenge outcome', async () => {
    for (const [action, result] of [
      ['complete', 'authorised'],
      ['fail', 'declined'],
    ] as const) {
      const order = await createCheckout(sandbox);
      const paid = await page(order.action, cardForm(TEST_CARDS.threeDsRequired));
      expect(paid.status).toBe(303);
      // The challenge page is at the order's pay token too, never at its transaction id.
      expect(paid.location).toBe(new URL(order.action).pathname.replace('/sandbox/pay/', '/sandbox/3ds/'));
      // Back on the pay page before finishing: it sends the shopper to the challenge again.
      expect((await page(order.action)).location).toBe(paid.location);
      const done = await page(`${sandbox.url}${paid.location}`, { sandbox_action: action });
      expect(done.status).toBe(303);
      expect(new URL(done.location!).searchParams.get('result')).toBe(result);
      expect(sandbox.state.orders.get(order.transactionId)!.history.map((e) => e.event)).toEqual([
        'created',
        'challenge-required',
        action === 'complete' ? 'challenge-passed' : 'challenge-failed',
        result,
      ]);
    }
  });

  it('has no challenge page for an order that asked for none', async () => {
    const order = await createCheckout(sandbox);
    const reply = await page(order.action.replace('/sandbox/pay/', '/sandbox/3ds/'), { sandbox_action: 'complete' });
    expect(reply.html).toContain('Payment pending');
    expect(sandbox.state.orders.get(order.transactionId)!.state).toBe('pending');
  });
});
