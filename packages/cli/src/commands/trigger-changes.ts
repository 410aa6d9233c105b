// `gw trigger` for the kinds of a later change to an order or subscription: real operations through @gw/client, first
// an approved test card payment (notified itself, as payment.authorised), then the change.
import { randomUUID } from 'node:crypto';
import type { createClient } from '@gw/client';
import { TEST_CARDS } from '@gw/sandbox';
import { GW_ERROR_CODES, GwError } from '@gw/types';

type Client = ReturnType<typeof createClient>;

/** The approved card payment a change acts on: the batch element that names it, and its subscription if asked. */
interface Paid {
  readonly element: { transaction_id: string; order_no: string; currency: string; amount: string };
  readonly recurringId: string;
}

async function pay(client: Client, notifyUrl: string, subscription?: Record<string, string>): Promise<Paid> {
  const order_no = `TRIGGER-${Date.now()}-${randomUUID().slice(0, 8)}`;
  const record = {
    order_no,
    currency: 'USD',
    amount: '10.00',
    card: TEST_CARDS.approved,
    expiration_month: '12',
    expiration_year: '2030',
    security_code: '123',
    notify_url: notifyUrl,
    ...(subscription ? { subscription } : {}),
  };
  const respon = await client.authoriseCard(record);
  if (!respon.transaction_id) throw new GwError(GW_ERROR_CODES.decode, `the payment ${order_no} answered no transaction_id`, { order_no });
  return { element: { transaction_id: respon.transaction_id, order_no, currency: 'USD', amount: '10.00' }, recurringId: respon.recurring_id ?? '' };
}

/** Throws when the one element of a batch answer was not applied (its status is not `1`). */
function applied(operation: string, result: Record<string, unknown> | undefined, statusField: string): string {
  if (result?.[statusField] !== '1')
    throw new GwError(GW_ERROR_CODES.gateway, `${operation} was not applied: ${String(result?.error_message ?? 'no result')}`, { operation });
  return String(result.transaction_id ?? '');
}

/** Each change kind, and the operations that cause it; each returns what it did, for the user. */
export const CHANGES: Record<string, (client: Client, notifyUrl: string) => Promise<string>> = {
  'payment.captured': async (client, notifyUrl) => {
    const { element } = await pay(client, notifyUrl);
    const answer = await client.capture({ capture_orders: [element] });
    return `authoriseCard then capture: transaction ${applied('capture', answer.capture_orders?.[0], 'capture_status')}`;
  },
  'payment.refunded': async (client, notifyUrl) => {
    const { element } = await pay(client, notifyUrl);
    applied('capture', (await client.capture({ capture_orders: [element] })).capture_orders?.[0], 'capture_status');
    const answer = await client.refund({ refund_orders: [{ ...element, refund_amount: element.amount, refund_reason: 'gw trigger' }] });
    return `authoriseCard, capture then a full refund: transaction ${applied('refund', answer.refund_orders?.[0], 'refund_status')}`;
  },
  'payment.reviewed': async (client, notifyUrl) => {
    const { element } = await pay(client, notifyUrl);
    const answer = await client.review({ review_orders: [{ transaction_id: element.transaction_id, order_no: element.order_no, review_flag: '1' }] });
    return `authoriseCard then review (approved): transaction ${applied('review', answer.review_orders?.[0], 'review_status')}`;
  },
  'subscription.cancelled': async (client, notifyUrl) => {
    const contract_name = 'gw-trigger';
    const { element, recurringId } = await pay(client, notifyUrl, { contract_name, interval: 'month', interval_count: '1' });
    const answer = await client.cancelSubscription({ recurring_id: recurringId, contract_name });
    if (answer.cancel_status !== '1')
      throw new GwError(GW_ERROR_CODES.gateway, `cancelSubscription was not applied: ${answer.error_message ?? ''}`, { operation: 'cancelSubscription' });
    return `authoriseCard with a subscription then cancelSubscription: transaction ${element.transaction_id}, subscription ${recurringId}`;
  },
};
