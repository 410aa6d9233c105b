import { createSignableMessage } from '@gw/signer-interface';
import { operations } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { ORDER_ERRORS, RETURN_PARAMETERS, SANDBOX_PAYMENT_STATUS, TEST_CARDS, type Sandbox } from '../src/index.ts';
import { send, signer } from './harness.ts';
import { cardForm, createAlternative, createCheckout, page, sandboxAndSinkForFile, type NotificationSink } from './pages-harness.ts';

let sandbox: Sandbox;
let sink: NotificationSink;
sandboxAndSinkForFile((started, listening) => {
  sandbox = started;
  sink = listening;
});

async function paymentStatus(orderNo: string): Promise<string> {
  const reply = await send(sandbox, 'query', { order_no: orderNo });
  return reply.json.orders_list[0].payment_status;
}

/** The result records of the verified notifications about one order (none may have failed verification). */
function notificationsFor(transactionId: string) {
  expect(sink.refused).toEqual([]);
  return sink.bodies.filter((b) => b.transaction_id === transactionId);
}

/** The event kinds notified about one order. */
function kindsFor(transactionId: string) {
  return sink.events.filter((e) => (e.data as { transaction_id?: string }).transaction_id === transactionId).map((e) => e.kind);
}

describe('a hosted checkout order', () => {
  it('is pending, cannot be captured, cancelled or refunded, and sends no notification before the shopper acts', async () => {
    const order = await createCheckout(sandbox, { notify_url: sink.url });
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.pending);
    const element = { transaction_id: order.transactionId, order_no: order.orderNo, currency: 'USD', amount: '59.90' };
    for (const op of ['capture', 'cancel', 'refund'] as const) {
      const { array, responseArray } = operations[op].batch;
      const reply = await send(sandbox, op, { [array]: [op === 'refund' ? { ...element, refund_amount: '1.00' } : element] });
      expect(reply.json[responseArray][0].error_message, op).toBe(ORDER_ERRORS.pending);
    }
    await sandbox.notificationsIdle();
    expect(notificationsFor(order.transactionId)).toEqual([]);
    expect(sandbox.state.orders.get(order.transactionId)!.expiresAt).toBeInstanceOf(Date);
  });

  it('shows the order summary from the form and a card form; paying goes 303 to return_url with signed parameters', async () => {
    const order = await createCheckout(sandbox, {
      notify_url: sink.url,
      first_name: 'Ana',
      cart_items: [{ basic_item_data: { name: 'Blue mug', quantity: '2' } }],
    });
    const shown = await page(order.action, order.hidden);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('59.90 USD');
    expect(shown.html).toContain('Blue mug × 2');
    expect(shown.html).toContain(TEST_CARDS.declined);
    expect(shown.html).toMatch(/<label for="card_number">/);
    expect(shown.html).toContain('name="viewport"');
    const paid = await page(order.action, cardForm(TEST_CARDS.approved));
    expect(paid.status).toBe(303);
    const back = new URL(paid.location!);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example.test/return');
    expect(back.searchParams.get('cart')).toBe('7');
    expect(Object.fromEntries([...RETURN_PARAMETERS].map((n) => [n, back.searchParams.get(n)]))).toEqual({
      transaction_id: order.transactionId,
      order_no: order.orderNo,
      amount: '59.90',
      currency: 'USD',
      result: 'authorised',
      result_info: '0000:Success',
    });
    const record = Object.fromEntries(RETURN_PARAMETERS.map((n) => [n, back.searchParams.get(n)!]));
    const message = createSignableMessage({ operation: 'checkout', record, body: new URLSearchParams(record).toString() });
    expect(signer.verify(message, back.searchParams.get('encryption_data')!)).toBe(true);
    expect(
      signer.verify(
        createSignableMessage({ operation: 'checkout', record: { ...record, result: 'declined' }, body: '' }),
        back.searchParams.get('encryption_data')!,
      ),
    ).toBe(false);
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.authorised);
    await sandbox.notificationsIdle();
    expect(notificationsFor(order.transactionId)).toEqual([
      expect.objectContaining({ order_status: '1', result_info: '0000:Success', card: '411111******1111' }),
    ]);
    expect(kindsFor(order.transactionId)).toEqual(['payment.authorised']);
    expect(sandbox.state.orders.get(order.transactionId)!.history.map((e) => [e.event, e.by])).toEqual([
      ['created', 'api'],
      ['authorised', 'shopper'],
    ]);
    // The order is settled once: a second submission shows where it stands and changes nothing.
    const again = await page(order.action, cardForm(TEST_CARDS.declined));
    expect(again.status).toBe(200);
    expect(again.html).toContain('Payment authorised');
    const captured = await send(sandbox, 'capture', {
      capture_orders: [{ transaction_id: order.transactionId, order_no: order.orderNo, currency: 'USD', amount: '59.90' }],
    });
    expect(captured.json.capture_orders[0].capture_status).toBe('1');
  });

  it('declines a declining card, goes back with result=declined and notifies order_status 0', async () => {
    const order = await createCheckout(sandbox, { notify_url: sink.url });
    const paid = await page(order.action, cardForm(TEST_CARDS.insufficientFunds));
    const back = new URL(paid.location!);
    expect([back.searchParams.get('result'), back.searchParams.get('result_info')]).toEqual(['declined', '2004:Insufficient funds']);
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.declined);
    await sandbox.notificationsIdle();
    expect(notificationsFor(order.transactionId)).toEqual([expect.objectContaining({ order_status: '0', result_info: '2004:Insufficient funds' })]);
    expect(kindsFor(order.transactionId)).toEqual(['payment.declined']);
  });

  it('asks again, naming every problem, for a malformed card entry, and never writes the entry back', async () => {
    const order = await createCheckout(sandbox);
    const reply = await page(order.action, cardForm('5555 5555 55', { expiry: '01/20', cvv: '98x7', holder: '' }));
    expect(reply.status).toBe(422);
    for (const field of ['Card number', 'Expiry', 'CVV', 'Name on card']) expect(reply.html).toContain(`<li>${field}:`);
    expect(reply.html).not.toContain('5555 5555 55');
    expect(reply.html).not.toContain('98x7');
    expect(sandbox.state.orders.get(order.transactionId)!.state).toBe('pending');
  });

  it('goes to cancel_url with result=cancelled when the shopper cancels, and the order is cancelled', async () => {
    const order = await createCheckout(sandbox, { notify_url: sink.url });
    const reply = await page(order.action, { sandbox_action: 'cancel' });
    expect(reply.status).toBe(303);
    const back = new URL(reply.location!);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example.test/cancel');
    expect(back.searchParams.get('result')).toBe('cancelled');
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.cancelled);
    await sandbox.notificationsIdle();
    expect(notificationsFor(order.transactionId)).toEqual([expect.objectContaining({ order_status: '0', result_info: '2020:Cancelled by the shopper' })]);
    expect(kindsFor(order.transactionId)).toEqual(['payment.cancelled']);
  });

  it('shows the result itself, and redirects nowhere, when return_url is not an http(s) address', async () => {
    const order = await createCheckout(sandbox, { return_url: 'javascript:alert(1)', cancel_url: '' });
    const reply = await page(order.action, cardForm(TEST_CARDS.approved));
    expect(reply.status).toBe(200);
    expect(reply.location).toBeNull();
    expect(reply.html).toContain('Payment authorised');
    expect(reply.html).not.toContain('javascript:');
  });
});

describe('an alternative-method order', () => {
  it.each([
    ['approve', 'authorised', '1'],
    ['decline', 'declined', '0'],
    ['cancel', 'cancelled', '0'],
  ] as const)('%s on the issuer page makes it %s, notified then', async (action, state, orderStatus) => {
    const order = await createAlternative(sandbox, { notify_url: sink.url });
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.pending);
    const shown = await page(order.issuerUrl);
    for (const label of ['Approve', 'Decline', 'Cancel', 'Leave pending']) expect(shown.html).toContain(`>${label}</button>`);
    const reply = await page(order.issuerUrl, { sandbox_action: action });
    expect(reply.status).toBe(303);
    expect(new URL(reply.location!).searchParams.get('result')).toBe(state);
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS[state]);
    await sandbox.notificationsIdle();
    expect(notificationsFor(order.transactionId)).toEqual([expect.objectContaining({ order_status: orderStatus, transaction_id: order.transactionId })]);
    expect(kindsFor(order.transactionId)).toEqual([`payment.${state}`]);
  });

  it('stays pending when the shopper leaves it, going back with result=pending and no notification', async () => {
    const order = await createAlternative(sandbox, { notify_url: sink.url });
    const reply = await page(order.issuerUrl, { sandbox_action: 'leave' });
    expect(new URL(reply.location!).searchParams.get('result')).toBe('pending');
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.pending);
    await sandbox.notificationsIdle();
    expect(notificationsFor(order.transactionId)).toEqual([]);
    expect((await page(order.issuerUrl, { sandbox_action: 'approve' })).status).toBe(303);
    expect(await paymentStatus(order.orderNo)).toBe(SANDBOX_PAYMENT_STATUS.authorised);
  });
});
