// Every state change the sandbox models is notified (UNKNOWNS U44): captured, partly and fully refunded, cancelled by
// /v1/cancel, reviewed (approved, rejected), subscription cancelled. Each arrives over real HTTP at a receiver built with
// @gw/notifications, and the handler of its kind runs with the event typed for that kind.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNotificationReceiver, handleByKind, type KindHandlers, type NotificationEvent } from '@gw/notifications';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, send, signer } from './harness.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** A merchant's endpoint: a receiver of @gw/notifications running the given typed handlers; every event is kept too. */
async function endpoint(handlers: KindHandlers): Promise<{ url: string; events: NotificationEvent[] }> {
  const events: NotificationEvent[] = [];
  const byKind = handleByKind(handlers);
  const receiver = createNotificationReceiver({
    verifiers: [signer],
    onEvent: (event) => (events.push(event), byKind(event)),
    onError: (e) => console.error(e),
  });
  const server = createServer((req, res) => void receiver.node(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/gw`, events };
}

/** A card payment of 100.00 USD with this notify_url; returns the batch element that names it. */
async function paid(sandbox: Sandbox, notifyUrl: string, extra: Record<string, unknown> = {}) {
  const payment = cardPayment({ notify_url: notifyUrl, ...extra });
  const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', payment)).text);
  return { transaction_id: respon.transaction_id!, order_no: String(payment.order_no), currency: 'USD', amount: '100.00', recurring_id: respon.recurring_id };
}

/** The kinds the endpoint received, in order. */
const kinds = (events: NotificationEvent[]) => events.map((e) => `${e.operation} ${e.kind}`);

describe('the sandbox notifies every state change it models', () => {
  it('payment.captured: the capture, with the order identity, to the notify_url of the payment', async () => {
    const seen: string[] = [];
    const hook = await endpoint({
      'payment.captured': (event) => {
        expectTypeOf(event.operation).toEqualTypeOf<'capture'>();
        seen.push(`${event.data.transaction_id} ${event.data.amount} ${event.data.currency} ${event.data.capture_status}`);
      },
    });
    await using sandbox = await startSandbox();
    const order = await paid(sandbox, hook.url);
    const { order_no: _byTransactionIdOnly, ...element } = order;
    expect(
      (await send(sandbox, 'capture', { capture_orders: [{ transaction_id: element.transaction_id, currency: 'USD', amount: '100.00' }] })).json
        .capture_orders[0].capture_status,
    ).toBe('1');
    // Capturing again changes nothing, so nothing more is notified.
    expect(
      (await send(sandbox, 'capture', { capture_orders: [{ transaction_id: order.transaction_id, currency: 'USD', amount: '100.00' }] })).json.capture_orders[0]
        .capture_status,
    ).toBe('0');
    await sandbox.notificationsIdle();
    expect(kinds(hook.events)).toEqual(['authoriseCard payment.authorised', 'capture payment.captured']);
    expect(seen).toEqual([`${order.transaction_id} 100.00 USD 1`]);
    expect(hook.events[1]!.data).toMatchObject({ order_no: order.order_no, error_message: '' });
    expect(sandbox.state.notifications[1]).toMatchObject({ kind: 'payment', key: order.transaction_id, eventKind: 'payment.captured', delivered: true });
  });

  it('payment.refunded: partial, then full, each with what is refunded so far', async () => {
    const seen: string[] = [];
    const hook = await endpoint({
      'payment.refunded': (event) => {
        expectTypeOf(event.data.refund_state).toEqualTypeOf<'partial' | 'full'>();
        seen.push(
          `${event.data.refund_state} ${event.data.refund_amount} (${event.data.refunded_amount} of ${event.data.amount}) ${event.data.refund_reference_id}`,
        );
      },
    });
    await using sandbox = await startSandbox();
    const { recurring_id: _, ...order } = await paid(sandbox, hook.url);
    await send(sandbox, 'capture', { capture_orders: [order] });
    await send(sandbox, 'refund', { refund_orders: [{ ...order, refund_amount: '40.00', refund_reason: 'one item back' }] });
    await send(sandbox, 'refund', { refund_orders: [{ ...order, refund_amount: '60.00' }] });
    await send(sandbox, 'refund', { refund_orders: [{ ...order, refund_amount: '1.00' }] }); // refused: fully refunded, nothing changes
    await sandbox.notificationsIdle();
    expect(kinds(hook.events)).toEqual(['authoriseCard payment.authorised', 'capture payment.captured', 'refund payment.refunded', 'refund payment.refunded']);
    expect(seen).toEqual([`partial 40.00 (40.00 of 100.00) ${order.transaction_id}-01`, `full 60.00 (100.00 of 100.00) ${order.transaction_id}-02`]);
    expect(hook.events[2]!.data).toMatchObject({ refund_reason: 'one item back', refund_status: '1', refund_message: '0000:Success' });
  });

  it('payment.cancelled by /v1/cancel: operation cancel, the cancel element result', async () => {
    const seen: string[] = [];
    const hook = await endpoint({
      'payment.cancelled': (event) => {
        if (event.operation === 'cancel') seen.push(`${event.data.transaction_id} ${event.data.cancel_status}`);
      },
    });
    await using sandbox = await startSandbox();
    const { recurring_id: _, ...order } = await paid(sandbox, hook.url);
    await send(sandbox, 'cancel', { cancel_orders: [order] });
    await sandbox.notificationsIdle();
    expect(kinds(hook.events)).toEqual(['authoriseCard payment.authorised', 'cancel payment.cancelled']);
    expect(seen).toEqual([`${order.transaction_id} 1`]);
  });

  it('payment.reviewed: approved (1) and rejected (0, the order is cancelled)', async () => {
    const seen: string[] = [];
    const hook = await endpoint({
      'payment.reviewed': (event) => void seen.push(`${event.data.transaction_id} ${event.data.review_flag} ${event.data.review_status}`),
    });
    await using sandbox = await startSandbox();
    const approved = await paid(sandbox, hook.url);
    const rejected = await paid(sandbox, hook.url);
    await send(sandbox, 'review', {
      review_orders: [
        { transaction_id: approved.transaction_id, review_flag: '1' },
        { transaction_id: rejected.transaction_id, review_flag: '0' },
      ],
    });
    await sandbox.notificationsIdle();
    expect(kinds(hook.events).filter((k) => k.startsWith('review'))).toEqual(['review payment.reviewed', 'review payment.reviewed']);
    expect(seen).toEqual([`${approved.transaction_id} 1 1`, `${rejected.transaction_id} 0 1`]);
    expect(sandbox.state.orders.get(rejected.transaction_id)!.state).toBe('cancelled');
  });

  it('subscription.cancelled: once, to the notify_url of the first payment, even when cancelled twice', async () => {
    const seen: string[] = [];
    const hook = await endpoint({
      'subscription.cancelled': (event) =>
        void seen.push(`${event.data.recurring_id} ${event.data.contract_name} ${event.data.cancel_status} first payment ${event.data.transaction_id}`),
    });
    await using sandbox = await startSandbox();
    const order = await paid(sandbox, hook.url, { subscription: { contract_name: 'Gold', interval: 'month', interval_count: '1' } });
    const cancel = { recurring_id: order.recurring_id, contract_name: 'Gold' };
    expect((await send(sandbox, 'cancelSubscription', cancel)).json.cancel_status).toBe('1');
    expect((await send(sandbox, 'cancelSubscription', cancel)).json.cancel_status).toBe('1');
    await sandbox.notificationsIdle();
    expect(kinds(hook.events)).toEqual(['authoriseCard payment.authorised', 'cancelSubscription subscription.cancelled']);
    expect(seen).toEqual([`${order.recurring_id} Gold 1 first payment ${order.transaction_id}`]);
    expect(hook.events[1]!.data).not.toHaveProperty('encryption_data');
  });

  it('notify.kinds narrows what is sent; an unknown kind is refused at start (GW_CONFIG)', async () => {
    const hook = await endpoint({});
    await using sandbox = await startSandbox({ notify: { kinds: ['payment.authorised', 'payment.refunded'] } });
    const { recurring_id: _, ...order } = await paid(sandbox, hook.url);
    await send(sandbox, 'capture', { capture_orders: [order] });
    await send(sandbox, 'refund', { refund_orders: [{ ...order, refund_amount: '100.00' }] });
    await sandbox.notificationsIdle();
    expect(kinds(hook.events)).toEqual(['authoriseCard payment.authorised', 'refund payment.refunded']);
    await expect(startSandbox({ notify: { kinds: ['payment.chargeback' as never] } })).rejects.toMatchObject({
      code: 'GW_CONFIG',
      details: { unknown: ['payment.chargeback'] },
    });
  });

  it('the console notification log lists the new kinds', async () => {
    const hook = await endpoint({});
    await using sandbox = await startSandbox();
    const { recurring_id: _, ...order } = await paid(sandbox, hook.url);
    await send(sandbox, 'capture', { capture_orders: [order] });
    await send(sandbox, 'refund', { refund_orders: [{ ...order, refund_amount: '10.00' }] });
    await sandbox.notificationsIdle();
    const page = await (await fetch(`${sandbox.url}/sandbox/console/notifications`)).text();
    for (const kind of ['payment.authorised', 'payment.captured', 'payment.refunded']) expect(page).toContain(kind);
  });
});
