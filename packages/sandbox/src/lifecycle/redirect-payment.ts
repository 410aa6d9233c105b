// The redirect lifecycle (UNKNOWNS U22, U17): a checkout, alternative-method or challenged card order waits `pending`
// for the shopper, then becomes authorised, declined, cancelled or expired once, and its notification is sent then.
import type { WireRecord } from '../wire/wire-record.ts';
import type { OrderEvent, SandboxOrder } from '../state/state.ts';
import type { SandboxDeps } from './deps.ts';
import { RedirectPaymentError } from './redirect-payment-error.ts';
import { VARIANT_OPERATION } from './variant-operation.ts';

/** How a pending order can end. */
export type RedirectOutcome = 'authorised' | 'declined' | 'cancelled' | 'expired';

/** What the shopper's action adds to the order (the card entered on the hosted page, the challenge's result). */
export interface RedirectDetail {
  readonly resultInfo?: string;
  readonly threedsResult?: string;
  readonly maskedCard?: string;
  readonly riskAction?: string;
  readonly riskScore?: number;
}

/** `result_info` of each outcome unless the action gives its own (sandbox codes, UNKNOWNS U22). */
export const REDIRECT_RESULT_INFO: Readonly<Record<RedirectOutcome, string>> = Object.freeze({
  authorised: '0000:Success',
  declined: '2001:Declined by the shopper',
  cancelled: '2020:Cancelled by the shopper',
  expired: '2021:Expired: the shopper did not complete the payment in time',
});

/** The notification record of a settled order: the order's echo, its transaction id, status and result. */
export function redirectNotification(order: SandboxOrder): WireRecord {
  const record: WireRecord = {
    merchant_id: order.merchantId,
    account_id: order.accountId,
    order_no: order.orderNo,
    amount: order.amount,
    currency: order.currency,
    transaction_id: order.transactionId,
    order_status: order.state === 'authorised' ? '1' : '0',
    result_info: order.resultInfo,
  };
  if (order.variant === 'alternative') return record;
  return { ...record, card: order.maskedCard, threeds_result: order.threedsResult, risk_action: order.riskAction, risk_score: order.riskScore };
}

function apply(order: SandboxOrder, outcome: RedirectOutcome, detail: RedirectDetail): void {
  order.state = outcome;
  order.expiresAt = null;
  order.resultInfo = detail.resultInfo ?? REDIRECT_RESULT_INFO[outcome];
  if (detail.maskedCard !== undefined) order.maskedCard = detail.maskedCard;
  if (detail.threedsResult !== undefined) {
    order.threedsResult = detail.threedsResult;
    order.is3ds = detail.threedsResult !== '';
  }
  if (detail.riskAction !== undefined) order.riskAction = detail.riskAction;
  if (detail.riskScore !== undefined) order.riskScore = detail.riskScore;
}

/**
 * Moves a pending order to its outcome, appends it to the history and sends the order's notification now. Throws a
 * RedirectPaymentError (code `not-pending`) when the order is not pending: an order is settled once.
 */
export function settleRedirectPayment(
  deps: SandboxDeps,
  order: SandboxOrder,
  outcome: RedirectOutcome,
  by: OrderEvent['by'],
  detail: RedirectDetail = {},
): void {
  if (order.state !== 'pending') throw new RedirectPaymentError({ transactionId: order.transactionId, state: order.state, outcome });
  const at = deps.clock();
  apply(order, outcome, detail);
  if (detail.threedsResult === 'CHALLENGE_PASSED') deps.state.addEvent(order, 'challenge-passed', by, at);
  if (detail.threedsResult === 'CHALLENGE_FAILED') deps.state.addEvent(order, 'challenge-failed', by, at);
  deps.state.addEvent(order, outcome, by, at, order.resultInfo);
  deps.notify(`payment.${outcome}`, order.record.notify_url, order.transactionId, redirectNotification(order), VARIANT_OPERATION[order.variant]);
}

/** Expires every pending order whose deadline is at or before `now`; returns how many expired. */
export function expireDuePayments(deps: SandboxDeps, now: Date): number {
  let expired = 0;
  for (const order of deps.state.orders.values()) {
    if (order.state !== 'pending' || order.expiresAt === null || order.expiresAt.getTime() > now.getTime()) continue;
    settleRedirectPayment(deps, order, 'expired', 'clock');
    expired += 1;
  }
  return expired;
}
