// UNKNOWNS U44: every later change to an order or subscription is notified to the notify_url of its first payment.
import { NOTIFYING_OPERATIONS } from '@gw/notifications';
import type { HandlerContext } from './context.ts';
import type { WireRecord } from '../wire/wire-record.ts';
import { fromMinorUnits } from '../state/money.ts';
import type { SandboxOrder } from '../state/state.ts';
import type { OrderOperation } from './order-operation.ts';

/** The element result of a change to `order`, with the order's own identity (an element may name it by order_no only). */
function orderIdentity(order: SandboxOrder, result: WireRecord): WireRecord {
  return { ...result, transaction_id: order.transactionId, order_no: order.orderNo, currency: order.currency, amount: order.amount };
}

/** How much of the order is refunded after a refund: `partial` or `full`, and the sum refunded so far. */
function refundStanding(order: SandboxOrder, ctx: HandlerContext): WireRecord {
  const refunded = ctx.state.refundedMinor(order);
  return { refund_state: order.state === 'refunded' ? 'full' : 'partial', refunded_amount: fromMinorUnits(refunded) };
}

/** Queues the notification of one applied change (capture, cancel, review, refund) of an order; its kind is the operation's one kind. */
export function notifyOrderChange(ctx: HandlerContext, op: OrderOperation, order: SandboxOrder, result: WireRecord): void {
  const [kind] = NOTIFYING_OPERATIONS[op];
  const data = op === 'refund' ? { ...orderIdentity(order, result), ...refundStanding(order, ctx) } : orderIdentity(order, result);
  ctx.notify(kind, order.record.notify_url, order.transactionId, data);
}
