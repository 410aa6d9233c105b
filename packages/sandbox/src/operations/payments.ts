// /v1/authorise (card and alternative method) and /v1/checkout: each accepted payment becomes an order.
import { checkoutForm } from '@gw/types';
import type { HandlerContext } from './context.ts';
import { text, type WireRecord } from '../wire/wire-record.ts';
import { dateTimeText } from '../state/ids.ts';
import { toMinorUnits } from '../state/money.ts';
import type { SandboxOrder } from '../state/state.ts';
import { refusalText } from '../refusals/refusal-codes.ts';
import { CHALLENGE_ORDER_STATUS, decideCardOutcome, maskCard } from '../cards/test-cards.ts';
import { withoutCardData } from '../cards/card-data.ts';
import { answeredExactly } from './fill-from-spec.ts';
import { challengePath, newPayToken, payPath } from '../state/pay-token.ts';

const SUCCESS = '0000:Success';

function echo(record: WireRecord, ctx: HandlerContext) {
  return {
    merchant_id: ctx.merchantId,
    account_id: ctx.accountId,
    order_no: text(record, 'order_no'),
    amount: text(record, 'amount'),
    currency: text(record, 'currency'),
  };
}

// UNKNOWNS U23: a second payment with the same order_no on the account is refused, so queries stay unambiguous.
function duplicateOrderNo(record: WireRecord, ctx: HandlerContext): boolean {
  return ctx.state.ordersByNo.has(`${ctx.merchantId}\u0000${text(record, 'order_no')}`);
}

function newOrder(record: WireRecord, ctx: HandlerContext, fields: Partial<SandboxOrder> & Pick<SandboxOrder, 'variant' | 'state'>): SandboxOrder {
  const order: SandboxOrder = {
    transactionId: ctx.ids.transactionId(),
    payToken: null,
    orderNo: text(record, 'order_no'),
    merchantId: ctx.merchantId,
    accountId: ctx.accountId,
    currency: text(record, 'currency'),
    amount: text(record, 'amount'),
    amountMinor: toMinorUnits(record.amount) ?? 0n,
    capturedMinor: 0n,
    refunds: [],
    reviewFlag: null,
    maskedCard: '',
    is3ds: false,
    riskAction: 'ACCEPT',
    riskScore: 12,
    resultInfo: SUCCESS,
    threedsResult: '',
    expiresAt: null,
    createdAt: ctx.clock(),
    record: Object.freeze(withoutCardData(record)),
    recurringId: null,
    history: [],
    ...fields,
  };
  ctx.state.addOrder(order);
  ctx.state.addEvent(order, 'created', 'api', order.createdAt, `${order.amount} ${order.currency}`);
  if (order.state !== 'pending') ctx.state.addEvent(order, order.state, 'api', order.createdAt, order.resultInfo);
  ctx.state.record('authorise', order.transactionId, order.amountMinor);
  return order;
}

function subscriptionFields(record: WireRecord, order: SandboxOrder, ctx: HandlerContext) {
  const sub = record.subscription;
  if (!sub || typeof sub !== 'object' || !order || order.state !== 'authorised') {
    return { contract_name: '', recurring_id: '', recurring_deduction_period: '', recurring_deduction_time: '' };
  }
  const s = sub as WireRecord;
  const recurringId = ctx.ids.recurringId();
  const contractName = text(s, 'contract_name');
  const count = Number.parseInt(text(s, 'interval_count') || '1', 10) || 1;
  const interval = text(s, 'interval') || 'day';
  const days = interval === 'day' ? count : interval === 'week' ? 7 * count : interval === 'month' ? 30 * count : interval === 'year' ? 365 * count : count;
  // Kept on the subscription: the payment's answer and every query give these same two values.
  const deductionPeriod = `${count} ${interval}`;
  const deductionTime = dateTimeText(new Date(ctx.clock().getTime() + days * 86_400_000));
  order.recurringId = recurringId;
  ctx.state.subscriptions.set(recurringId, {
    recurringId,
    contractName,
    transactionId: order.transactionId,
    merchantId: ctx.merchantId,
    accountId: ctx.accountId,
    status: '1',
    charges: 1,
    deductionPeriod,
    deductionTime,
  });
  return { contract_name: contractName, recurring_id: recurringId, recurring_deduction_period: deductionPeriod, recurring_deduction_time: deductionTime };
}

/** When a new pending order expires unpaid. */
function deadline(ctx: HandlerContext): Date {
  return new Date(ctx.clock().getTime() + ctx.redirectExpiryMs);
}

/**
 * Card variant of /v1/authorise: the test-card table decides (cards/test-cards.ts). A challenge card with `open3d=do3DS`
 * leaves the order pending with `order_status` `2` and a `challenge_url` (UNKNOWNS U17); its notification comes
 * when the shopper completes or fails the challenge.
 */
export function authoriseCard(record: WireRecord, ctx: HandlerContext): WireRecord {
  if (duplicateOrderNo(record, ctx)) {
    return answeredExactly({
      ...echo(record, ctx),
      transaction_id: '',
      card: maskCard(record.card),
      order_status: '0',
      result_info: refusalText('orderNoUsed'),
      note: text(record, 'note'),
      token_id: text(record, 'token_id'),
    });
  }
  const outcome = decideCardOutcome(record.card, record.amount, record.open3d === 'do3DS');
  const challenge = outcome.behaviour === 'challenge';
  const order = newOrder(record, ctx, {
    variant: 'card',
    state: challenge ? 'pending' : outcome.approved ? 'authorised' : 'declined',
    payToken: challenge ? newPayToken() : null,
    maskedCard: maskCard(record.card),
    is3ds: outcome.threeDs,
    riskAction: outcome.riskAction,
    riskScore: outcome.riskScore,
    resultInfo: outcome.resultInfo,
    threedsResult: outcome.threedsResult,
    expiresAt: challenge ? deadline(ctx) : null,
  });
  const response: WireRecord = {
    ...echo(record, ctx),
    transaction_id: order.transactionId,
    card: order.maskedCard,
    order_status: challenge ? CHALLENGE_ORDER_STATUS : outcome.approved ? '1' : '0',
    result_info: outcome.resultInfo,
    ...subscriptionFields(record, order, ctx),
    note: text(record, 'note'),
    token_id: text(record, 'token_id'),
    connector: 'gw-sandbox',
    threeds_result: outcome.threedsResult,
    risk_action: outcome.riskAction,
    risk_score: outcome.riskScore,
    risk_reasons: outcome.riskReasons,
  };
  if (challenge) {
    response.challenge_url = `${ctx.baseUrl}${challengePath(order)}`;
    ctx.state.addEvent(order, 'challenge-required', 'api', order.createdAt);
  } else ctx.notify('payment', record.notify_url, order.transactionId, response);
  return response;
}

/** Alternative-method variant of /v1/authorise: pending until the shopper acts on `issuer_url` (UNKNOWNS U22). */
export function authoriseAlternative(record: WireRecord, ctx: HandlerContext): WireRecord {
  if (duplicateOrderNo(record, ctx)) return { ...echo(record, ctx), issuer_url: '' };
  const order = newOrder(record, ctx, { variant: 'alternative', state: 'pending', payToken: newPayToken(), expiresAt: deadline(ctx) });
  return { ...echo(record, ctx), issuer_url: `${ctx.baseUrl}${payPath(order)}` };
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** /v1/checkout: a pending order and the hidden fields of the auto-submitting page (seed 2.4, the catalogue in the spec). */
export function checkout(record: WireRecord, ctx: HandlerContext): { fields: [string, string][]; action: string } | null {
  if (duplicateOrderNo(record, ctx)) return null;
  const order = newOrder(record, ctx, { variant: 'checkout', state: 'pending', payToken: newPayToken(), expiresAt: deadline(ctx) });
  const fields = new Map<string, string>();
  const routing: Record<string, string> = {
    gbc_id: 'SANDBOX',
    connector_code: 'gw-sandbox',
    account_name: ctx.accountId,
    'the service': text(record, 'the service'),
    pm_id: 'card',
    apm_type: '',
    descriptor: 'GW SANDBOX',
    orderprefix: '',
    rrtimezone: '+00:00',
    ordernumlength: String(order.orderNo.length),
    sendbgoods: '0',
    replacename: '',
    send_bank_website: '',
    replace_up_id: '',
    replace_match_address: '',
    to_pass_page: '1',
  };
  for (const name of checkoutForm.routingFields) fields.set(name, routing[name] ?? '');
  // The page (and its allParams, built from these fields) never carries card data, whatever the request held.
  if (checkoutForm.echoRequestFields) for (const [name, value] of Object.entries(withoutCardData(record))) fields.set(name, fieldText(value));
  const extra: Record<string, string> = {
    cancel_url: text(record, 'cancel_url'),
    return_url: text(record, 'return_url'),
    source_notify_url: text(record, 'notify_url'),
    source_request_ip: ctx.remoteAddress,
    default_lang: 'en',
    verify_billing_address: '0',
    logo_name: '',
    merSendLogoNo: '',
  };
  const safe = withoutCardData(record);
  for (const name of checkoutForm.extraFields) if (name !== checkoutForm.allParamsField) fields.set(name, extra[name] ?? fieldText(safe[name]));
  // Aliases carry the value of the field they stand for, a request field or one of the extra fields above.
  for (const [alias, source] of Object.entries(checkoutForm.aliases)) fields.set(alias, fields.get(source) ?? fieldText(safe[source]));
  // No notification yet: it is sent when the shopper pays, cancels, or the order expires (lifecycle/redirect-payment.ts).
  return { fields: [...fields], action: `${ctx.baseUrl}${payPath(order)}` };
}
