// Capture, cancel, review and refund: per-element results, the sandbox state machine of UNKNOWNS U28.
import { operations } from '@gw/types';
import type { HandlerContext } from './context.ts';
import { text, type WireRecord } from '../wire/wire-record.ts';
import { fromMinorUnits, toMinorUnits } from '../state/money.ts';
import { notifyOrderChange } from './change-notification.ts';
import { ELEMENT_NEEDS, missingFields } from './needed-to-act.ts';
import type { OrderOperation } from './order-operation.ts';
import type { SandboxOrder } from '../state/state.ts';
import { ORDER_ERRORS, RECORD_ERRORS } from '../refusals/refusal-codes.ts';

function findChecked(element: WireRecord, ctx: HandlerContext, needs: readonly string[] = ELEMENT_NEEDS): SandboxOrder | string {
  // UNKNOWNS U05: an element without the fields needed to act on its order is refused on its own.
  const missing = missingFields(element, needs);
  if (missing.length > 0) return `${ORDER_ERRORS.incomplete} (missing: ${missing.join(', ')})`;
  const order = ctx.state.findOrder(ctx.merchantId, element.transaction_id, element.order_no);
  if (!order) return ORDER_ERRORS.notFound;
  // UNKNOWNS U25: `amount` is the order's amount and `currency` its currency.
  if (text(element, 'currency') && element.currency !== order.currency) return ORDER_ERRORS.mismatch;
  // The order's own amount text needs no parsing: only another spelling of it (10 for 10.00) is compared in minor units.
  if (text(element, 'amount') && element.amount !== order.amount && toMinorUnits(element.amount) !== order.amountMinor) return ORDER_ERRORS.mismatch;
  return order;
}

function blockedFor(order: SandboxOrder, allowed: readonly SandboxOrder['state'][]): string | null {
  if (allowed.includes(order.state)) return null;
  switch (order.state) {
    case 'declined':
      return ORDER_ERRORS.declined;
    case 'cancelled':
      return ORDER_ERRORS.cancelled;
    case 'captured':
    case 'partially_refunded':
      return ORDER_ERRORS.captured;
    case 'refunded':
      return ORDER_ERRORS.refundedFully;
    case 'pending':
      return ORDER_ERRORS.pending;
    case 'expired':
      return ORDER_ERRORS.expired;
    default:
      return ORDER_ERRORS.notCaptured;
  }
}

/** Captures one order: the order when captured, else the element's error. */
function captureOne(element: WireRecord, ctx: HandlerContext): SandboxOrder | string {
  const order = findChecked(element, ctx);
  if (typeof order === 'string') return order;
  const blocked = blockedFor(order, ['authorised']);
  if (blocked) return blocked;
  order.state = 'captured';
  order.capturedMinor = order.amountMinor;
  ctx.state.record('capture', order.transactionId, order.amountMinor);
  ctx.state.addEvent(order, 'captured', 'api', ctx.clock(), `${order.amount} ${order.currency}`);
  return order;
}

/** Cancels one authorised order: the order when cancelled, else the element's error. */
function cancelOne(element: WireRecord, ctx: HandlerContext): SandboxOrder | string {
  const order = findChecked(element, ctx);
  if (typeof order === 'string') return order;
  const blocked = blockedFor(order, ['authorised']);
  if (blocked) return blocked === ORDER_ERRORS.captured ? RECORD_ERRORS.capturedCancel : blocked;
  order.state = 'cancelled';
  ctx.state.record('cancel', order.transactionId);
  ctx.state.addEvent(order, 'cancelled', 'api', ctx.clock());
  return order;
}

// UNKNOWNS U39: `1` approves, `0` rejects (the order is cancelled); other values are refused per element.
function reviewOne(element: WireRecord, ctx: HandlerContext): SandboxOrder | string {
  const order = findChecked(element, ctx, []);
  if (typeof order === 'string') return order;
  const flag = element.review_flag;
  if (flag !== '1' && flag !== '0') return ORDER_ERRORS.reviewFlag;
  if (order.state === 'pending' || order.state === 'expired') return ORDER_ERRORS[order.state];
  if (order.state !== 'authorised') return ORDER_ERRORS.reviewState;
  order.reviewFlag = flag;
  if (flag === '0') order.state = 'cancelled';
  ctx.state.record('review', order.transactionId);
  ctx.state.addEvent(order, flag === '1' ? 'review-approved' : 'review-rejected', 'api', ctx.clock());
  return order;
}

function statusFields(op: OrderOperation, error: string | null): WireRecord {
  const batch = operations[op].batch;
  return { [batch.statusField]: error ? '0' : '1', error_message: error ?? '' };
}

/** Refunds part or all of one captured order: the element's result fields, and the order when refunded. */
function refundOne(element: WireRecord, ctx: HandlerContext): { fields: WireRecord; order: SandboxOrder | null } {
  // A refused refund has no refund_reference_id (undefined: left out, never filled from the spec).
  const fail = (message: string) => ({
    fields: { refund_message: message, refund_reference: '', refund_reference_id: undefined, refund_status: '0', error_message: message },
    order: null,
  });
  const order = findChecked(element, ctx);
  if (typeof order === 'string') return fail(order);
  const blocked = blockedFor(order, ['captured', 'partially_refunded']);
  if (blocked) return fail(blocked === ORDER_ERRORS.captured ? ORDER_ERRORS.notCaptured : blocked);
  const amount = toMinorUnits(element.refund_amount);
  if (amount === null || amount <= 0n) return fail(ORDER_ERRORS.refundAmount);
  const refunded = ctx.state.refundedMinor(order);
  if (refunded + amount > order.capturedMinor) return fail(ORDER_ERRORS.refundTooMuch);
  if (order.refunds.length >= 99) return fail(ORDER_ERRORS.refundCount);
  // UNKNOWNS U26: refund_reference_id is the transaction id, dash, the refund's two-digit sequence number.
  const referenceId = `${order.transactionId}-${String(order.refunds.length + 1).padStart(2, '0')}`;
  const reference = ctx.ids.refundReference();
  order.refunds.push({ referenceId, reference, amountMinor: amount, reason: text(element, 'refund_reason') });
  order.state = refunded + amount === order.capturedMinor ? 'refunded' : 'partially_refunded';
  ctx.state.record('refund', referenceId, amount);
  ctx.state.addEvent(order, 'refunded', 'api', ctx.clock(), `${referenceId}: ${fromMinorUnits(amount)} ${order.currency}`);
  return {
    fields: { refund_message: '0000:Success', refund_reference: reference, refund_reference_id: referenceId, refund_status: '1', error_message: '' },
    order,
  };
}

function echoElement(op: OrderOperation, element: unknown): WireRecord {
  const e = (element ?? {}) as WireRecord;
  const out: WireRecord = {
    transaction_id: text(e, 'transaction_id'),
    order_no: text(e, 'order_no'),
    currency: text(e, 'currency'),
    amount: text(e, 'amount'),
  };
  if (op === 'review') out.review_flag = text(e, 'review_flag');
  if (op === 'refund') {
    out.refund_amount = text(e, 'refund_amount');
    out.refund_reason = text(e, 'refund_reason');
  }
  return out;
}

/** The element result of a capture, cancel or review; an applied change is notified (UNKNOWNS U44). */
function statusResult(op: OrderOperation, echo: WireRecord, outcome: SandboxOrder | string, ctx: HandlerContext): WireRecord {
  const result = { ...echo, ...statusFields(op, typeof outcome === 'string' ? outcome : null) };
  if (typeof outcome !== 'string') notifyOrderChange(ctx, op, outcome, result);
  return result;
}

/** The element result of a refund; an applied refund is notified (UNKNOWNS U44). */
function refundResult(echo: WireRecord, element: WireRecord, ctx: HandlerContext): WireRecord {
  const { fields, order } = refundOne(element, ctx);
  const result = { ...echo, ...fields };
  if (order) notifyOrderChange(ctx, 'refund', order, result);
  return result;
}

/** Runs one batch operation: every element gets its own result, in request order (UNKNOWNS U37). */
export function runOrderBatch(op: OrderOperation, record: WireRecord, ctx: HandlerContext): WireRecord {
  const batch = operations[op].batch;
  const elements = Array.isArray(record[batch.array]) ? (record[batch.array] as unknown[]) : [];
  const results = elements.map((element) => {
    const e = (element ?? {}) as WireRecord;
    const echo = echoElement(op, e);
    switch (op) {
      case 'capture':
        return statusResult(op, echo, captureOne(e, ctx), ctx);
      case 'cancel':
        return statusResult(op, echo, cancelOne(e, ctx), ctx);
      case 'review':
        return statusResult(op, echo, reviewOne(e, ctx), ctx);
      case 'refund':
        return refundResult(echo, e, ctx);
    }
  });
  return { merchant_id: ctx.merchantId, account_id: ctx.accountId, return_status: '1', return_message: 'OK', [batch.responseArray]: results };
}
