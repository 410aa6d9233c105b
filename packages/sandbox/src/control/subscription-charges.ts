// UNKNOWNS U29, U55: when the sandbox clock passes a subscription's deduction time, the subscription is
// charged: a new order, captured at once, its next deduction time moves on by the period, a notification if the first
// payment had a notify_url.
import type { SandboxNotify } from '../operations/context.ts';
import { dateTimeText, type IdSource } from '../state/ids.ts';
import type { SandboxOrder, SandboxState, SandboxSubscription } from '../state/state.ts';

/** What charging subscriptions needs from the sandbox. */
export interface ChargeDeps {
  readonly state: SandboxState;
  readonly ids: IdSource;
  readonly notify: SandboxNotify;
}

/** Charges one subscription may take in one clock advance: a year of daily charges, no runaway loop. */
const MAX_CHARGES_PER_ADVANCE = 366;
const DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/** The period of `<count> <interval>` in milliseconds (the same day counts as the payment's first deduction time). */
function periodMs(deductionPeriod: string): number {
  const [count, interval] = deductionPeriod.split(' ');
  return Math.max(1, Number.parseInt(count ?? '1', 10) || 1) * (DAYS[interval ?? 'day'] ?? 1) * 86_400_000;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) as a Date. */
function parseDeductionTime(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

function chargeOnce(deps: ChargeDeps, sub: SandboxSubscription, first: SandboxOrder, at: Date): SandboxOrder {
  const charge: SandboxOrder = {
    ...first,
    transactionId: deps.ids.transactionId(),
    // A charge has no shopper pages: the first payment's token stays the first payment's.
    payToken: null,
    orderNo: `${first.orderNo}-R${sub.charges + 1}`,
    state: 'captured',
    capturedMinor: first.amountMinor,
    refunds: [],
    reviewFlag: null,
    createdAt: at,
    recurringId: sub.recurringId,
    history: [],
  };
  deps.state.addOrder(charge);
  deps.state.addEvent(charge, 'created', 'clock', at, `subscription ${sub.recurringId} charge ${sub.charges + 1}: ${charge.amount} ${charge.currency}`);
  deps.state.addEvent(charge, 'captured', 'clock', at, `${charge.amount} ${charge.currency}`);
  deps.state.record('authorise', charge.transactionId, charge.amountMinor);
  deps.state.record('capture', charge.transactionId, charge.amountMinor);
  return charge;
}

function notifyCharge(deps: ChargeDeps, sub: SandboxSubscription, charge: SandboxOrder): void {
  const record = {
    merchant_id: charge.merchantId,
    account_id: charge.accountId,
    order_no: charge.orderNo,
    amount: charge.amount,
    currency: charge.currency,
    transaction_id: charge.transactionId,
    card: charge.maskedCard,
    order_status: '1',
    result_info: '0000:Success',
    contract_name: sub.contractName,
    recurring_id: sub.recurringId,
    recurring_deduction_period: sub.deductionPeriod,
    recurring_deduction_time: sub.deductionTime,
  };
  deps.notify('payment', charge.record.notify_url, charge.transactionId, record, 'authoriseCard');
}

/** Charges every active subscription whose deduction time is at or before `now`; returns the charges made. */
export function runSubscriptionCharges(deps: ChargeDeps, now: Date): number {
  let made = 0;
  for (const sub of deps.state.subscriptions.values()) {
    const first = deps.state.orders.get(sub.transactionId);
    if (sub.status !== '1' || !first) continue;
    for (let n = 0; n < MAX_CHARGES_PER_ADVANCE; n++) {
      const due = parseDeductionTime(sub.deductionTime);
      if (Number.isNaN(due.getTime()) || due.getTime() > now.getTime()) break;
      const charge = chargeOnce(deps, sub, first, due);
      sub.charges += 1;
      sub.deductionTime = dateTimeText(new Date(due.getTime() + periodMs(sub.deductionPeriod)));
      deps.state.touchSubscription(sub);
      notifyCharge(deps, sub, charge);
      made += 1;
    }
  }
  return made;
}
