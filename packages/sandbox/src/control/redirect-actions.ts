// Adapter to the pages slice's redirect lifecycle (src/lifecycle/redirect-payment.ts, contract of issue 13):
// `settleRedirectPayment` and `expireDuePayments`. Until that module is merged, the minimal equivalents below act on
// pending orders; the integrator replaces their bodies with re-exports of the lifecycle's functions.
import type { SandboxNotify } from '../context.ts';
import type { OrderEvent, SandboxOrder, SandboxState } from '../state.ts';

/** What settling a redirect payment needs from the sandbox. */
export interface RedirectDeps {
  readonly state: SandboxState;
  readonly clock: () => Date;
  readonly notify: SandboxNotify;
}

/** The outcomes an operator or the clock may give a pending order. */
export type RedirectOutcome = 'authorised' | 'declined' | 'cancelled' | 'expired';

const RESULT_INFO: Record<RedirectOutcome, string> = {
  authorised: '0000:Success',
  declined: 'E101:declined by the sandbox operator',
  cancelled: 'E102:cancelled',
  expired: 'E103:the shopper did not complete the payment in time',
};

/** Moves a pending order to `outcome`, appends its history and sends its notification now. */
export function settleRedirectPayment(deps: RedirectDeps, order: SandboxOrder, outcome: RedirectOutcome, by: OrderEvent['by'], detail?: { resultInfo?: string }): void {
  if (order.state !== 'pending') throw new Error(`${order.transactionId} is ${order.state}, not pending`);
  const resultInfo = detail?.resultInfo ?? RESULT_INFO[outcome];
  order.state = outcome;
  deps.state.addEvent(order, outcome, by, deps.clock(), resultInfo);
  const record = { merchant_id: order.merchantId, account_id: order.accountId, order_no: order.orderNo, amount: order.amount, currency: order.currency, transaction_id: order.transactionId, order_status: outcome === 'authorised' ? '1' : '0', result_info: resultInfo };
  deps.notify('payment', order.record.notify_url, order.transactionId, record, order.variant === 'checkout' ? 'checkout' : 'authoriseAlternative');
}

/** Expires every pending order whose `expiresAt` has passed; returns how many. */
export function expireDuePayments(deps: RedirectDeps, now: Date): number {
  let expired = 0;
  for (const order of deps.state.orders.values()) {
    const expiresAt = (order as { expiresAt?: unknown }).expiresAt;
    if (order.state !== 'pending' || !(expiresAt instanceof Date) || expiresAt.getTime() > now.getTime()) continue;
    settleRedirectPayment(deps, order, 'expired', 'clock');
    expired += 1;
  }
  return expired;
}
