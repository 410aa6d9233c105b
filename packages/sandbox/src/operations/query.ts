// /v1/retrievalTrans: the 2.5 record of each selected order (UNKNOWNS U36 for the selection fields).
import { operations, querySelection } from '@gw/types';
import type { HandlerContext } from './context.ts';
import { text, type WireRecord } from '../wire/wire-record.ts';
import { answeredExactly } from './fill-from-spec.ts';
import { transactionDate } from '../state/ids.ts';
import type { SandboxOrder, SandboxState } from '../state/state.ts';
import { SANDBOX_PAYMENT_STATUS } from '../state/payment-status.ts';

function deliveryInformation(record: Readonly<WireRecord>): WireRecord {
  const keys = ['delivery_address', 'delivery_city', 'delivery_country', 'delivery_firstname', 'delivery_lastname', 'delivery_postal_code', 'delivery_state'];
  return Object.fromEntries(keys.map((k) => [k, text(record as WireRecord, k)]));
}

/** The 2.5 record of one order. */
export function queriedOrder(order: SandboxOrder, state: SandboxState): WireRecord {
  const subscription = order.recurringId ? state.subscriptions.get(order.recurringId) : undefined;
  const result: WireRecord = {
    amount: order.amount,
    currency: order.currency,
    order_no: order.orderNo,
    reference_no: order.transactionId,
    transaction_id: order.transactionId,
    'the service': text(order.record as WireRecord, 'the service'),
    delivery_information: deliveryInformation(order.record),
    antifraud_provider: 'gw-sandbox-risk',
    fraud_check_result: [{ check_items: 'velocity', status: order.riskAction }],
    is3ds: order.is3ds ? '1' : '0',
    payment_status: SANDBOX_PAYMENT_STATUS[order.state],
    query_result: '1',
    shopper_email: text(order.record as WireRecord, 'shopper_email'),
    shopper_phone: text(order.record as WireRecord, 'shopper_phone'),
    transaction_date: transactionDate(order.createdAt),
  };
  // An order without a subscription has no subscription_result (undefined: left out, never filled from the spec).
  result.subscription_result = undefined;
  if (subscription) {
    result.subscription_result = {
      contract_name: subscription.contractName,
      recurring_deduction_period: subscription.deductionPeriod,
      recurring_deduction_time: subscription.deductionTime,
      recurring_id: subscription.recurringId,
      recurring_status: subscription.status,
    };
  }
  return result;
}

/** Splits a comma-joined selection field into its values. */
function values(record: WireRecord, field: string): string[] {
  const raw = text(record, field);
  return raw ? raw.split(querySelection?.separator ?? operations.query.batch.separator ?? ',').filter(Boolean) : [];
}

/** /v1/retrievalTrans: every order matching any selected value, and a `query_result` `0` echo for unknown values. */
export function query(record: WireRecord, ctx: HandlerContext): WireRecord {
  const found: WireRecord[] = [];
  const seen = new Set<string>();
  for (const field of ['order_no', 'transaction_id'] as const) {
    for (const value of values(record, field)) {
      const order = field === 'order_no' ? ctx.state.findOrder(ctx.merchantId, undefined, value) : ctx.state.findOrder(ctx.merchantId, value, undefined);
      if (!order) {
        found.push(answeredExactly({ [field]: value, query_result: '0' }));
        continue;
      }
      if (seen.has(order.transactionId)) continue;
      seen.add(order.transactionId);
      found.push(queriedOrder(order, ctx.state));
    }
  }
  return { merchant_id: ctx.merchantId, account_id: ctx.accountId, return_status: '1', return_message: 'OK', orders_list: found };
}
