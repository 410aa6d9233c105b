// The JSON shapes of the control API: the state's own names, money as decimal strings, dates as ISO 8601 text.
import { fromMinorUnits } from '../state/money.ts';
import type { NotificationDelivery, SandboxOrder, SandboxRefund, SandboxState, SandboxSubscription } from '../state/state.ts';

/** A refund as the control API shows it. */
export function refundView(order: SandboxOrder, refund: SandboxRefund) {
  return {
    transactionId: order.transactionId,
    referenceId: refund.referenceId,
    reference: refund.reference,
    amount: fromMinorUnits(refund.amountMinor),
    currency: order.currency,
    reason: refund.reason,
  };
}

/** An order in a list: what it is and where it stands. */
export function orderSummary(state: SandboxState, order: SandboxOrder) {
  return {
    transactionId: order.transactionId,
    orderNo: order.orderNo,
    merchantId: order.merchantId,
    accountId: order.accountId,
    variant: order.variant,
    state: order.state,
    amount: order.amount,
    currency: order.currency,
    capturedAmount: fromMinorUnits(order.capturedMinor),
    refundedAmount: fromMinorUnits(state.refundedMinor(order)),
    createdAt: order.createdAt.toISOString(),
  };
}

/** A notification: where it went, whether it was delivered, and every attempt. */
export function notificationView(delivery: NotificationDelivery, withBody = false) {
  const attempts = delivery.attempts.map((a) => ({ at: a.at.toISOString(), status: a.status, error: a.error }));
  const view = {
    id: delivery.id,
    kind: delivery.kind,
    eventKind: delivery.eventKind,
    eventId: delivery.eventId,
    resendOf: delivery.resendOf,
    key: delivery.key,
    url: delivery.url,
    delivered: delivery.delivered,
    attempts,
  };
  return withBody ? { ...view, body: delivery.body } : view;
}

/** An order with everything that happened to it: history, refunds, notifications, and the request fields (no card data). */
export function orderDetail(state: SandboxState, order: SandboxOrder) {
  return {
    ...orderSummary(state, order),
    maskedCard: order.maskedCard,
    is3ds: order.is3ds,
    // A pending order has no result until the shopper (or an operator) settles it.
    riskAction: order.state === 'pending' ? null : order.riskAction,
    riskScore: order.state === 'pending' ? null : order.riskScore,
    resultInfo: order.state === 'pending' ? null : order.resultInfo,
    reviewFlag: order.reviewFlag,
    recurringId: order.recurringId,
    history: order.history.map((e) => ({ at: e.at.toISOString(), event: e.event, by: e.by, ...(e.detail === undefined ? {} : { detail: e.detail }) })),
    refunds: order.refunds.map((r) => refundView(order, r)),
    notifications: state.notifications.filter((d) => d.kind === 'payment' && d.key === order.transactionId).map((d) => notificationView(d)),
    request: order.record,
  };
}

/** A subscription. */
export function subscriptionView(sub: SandboxSubscription) {
  return { ...sub };
}

/** A payout: the answer the sandbox gave (amounts as the seed types them), with its lookup key's request id. */
export function payoutView(key: string, payout: Readonly<Record<string, unknown>>) {
  const [merchantId, requestId] = key.split('\u0000');
  return { merchantId, requestId, payout };
}
