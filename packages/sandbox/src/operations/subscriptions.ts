// /v1/cancelsubscription: by recurring_id and contract_name (seed section 4 rule 4); idempotent (UNKNOWNS U29).
import type { HandlerContext } from './context.ts';
import { text, type WireRecord } from '../wire/wire-record.ts';
import { RECORD_ERRORS } from '../refusals/refusal-codes.ts';

/** Cancels a subscription: `Inactived` at once, no further charge. */
export function cancelSubscription(record: WireRecord, ctx: HandlerContext): WireRecord {
  const recurringId = text(record, 'recurring_id');
  const contractName = text(record, 'contract_name');
  const sub = ctx.state.subscriptions.get(recurringId);
  const base = { merchant_id: ctx.merchantId, account_id: ctx.accountId, recurring_id: recurringId, contract_name: contractName };
  if (!sub || sub.merchantId !== ctx.merchantId || sub.contractName !== contractName) {
    return { ...base, cancel_status: '0', error_message: RECORD_ERRORS.subscriptionNotFound };
  }
  const result = { ...base, cancel_status: '1', error_message: '' };
  if (sub.status !== 'Inactived') {
    sub.status = 'Inactived';
    ctx.state.record('cancel-subscription', recurringId);
    // UNKNOWNS U44: notified once, to the notify_url of the subscription's first payment; a repeated cancel changes nothing.
    ctx.notify('subscription.cancelled', ctx.state.orders.get(sub.transactionId)?.record.notify_url, sub.transactionId, {
      ...result,
      transaction_id: sub.transactionId,
    });
  }
  return result;
}
