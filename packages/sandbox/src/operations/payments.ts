// /v1/authorise (card and alternative method) and /v1/checkout: each accepted payment becomes an order.
import { checkoutForm } from '@gw/types';
import { text, type HandlerContext, type WireRecord } from '../context.ts';
import { dateTimeText } from '../ids.ts';
import { toMinorUnits } from '../money.ts';
import type { SandboxOrder } from '../state.ts';
import { decideCardOutcome, maskCard } from '../test-cards.ts';
import { withoutCardData } from '../card-data.ts';

const SUCCESS = '0000:Success';

function echo(record: WireRecord, ctx: HandlerContext) {
  return { merchant_id: ctx.merchantId, account_id: ctx.accountId, order_no: text(record, 'order_no'), amount: text(record, 'amount'), currency: text(record, 'currency') };
}

// UNKNOWNS U23: a second payment with the same order_no on the account is refused, so queries stay unambiguous.
function duplicateOrderNo(record: WireRecord, ctx: HandlerContext): boolean {
  return ctx.state.ordersByNo.has(`${ctx.merchantId}\u0000${text(record, 'order_no')}`);
}

function newOrder(record: WireRecord, ctx: HandlerContext, fields: Partial<SandboxOrder> & Pick<SandboxOrder, 'variant' | 'state'>): SandboxOrder {
  const order: SandboxOrder = {
    transactionId: ctx.ids.transactionId(),
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
  if (!sub || typeof sub !== 'object' || !order || order.state === 'declined') {
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
  ctx.state.subscriptions.set(recurringId, { recurringId, contractName, transactionId: order.transactionId, merchantId: ctx.merchantId, accountId: ctx.accountId, status: '1', charges: 1, deductionPeriod, deductionTime });
  return { contract_name: contractName, recurring_id: recurringId, recurring_deduction_period: deductionPeriod, recurring_deduction_time: deductionTime };
}

/** Card variant of /v1/authorise: test cards and amounts decide the outcome (see test-cards.ts). */
export function authoriseCard(record: WireRecord, ctx: HandlerContext): WireRecord {
  if (duplicateOrderNo(record, ctx)) {
    return { ...echo(record, ctx), transaction_id: '', card: maskCard(record.card), order_status: '0', result_info: '1001:order_no already used on this account', note: text(record, 'note'), token_id: text(record, 'token_id') };
  }
  const outcome = decideCardOutcome(record.card, record.amount, record.open3d);
  const order = newOrder(record, ctx, {
    variant: 'card',
    state: outcome.approved ? 'authorised' : 'declined',
    maskedCard: maskCard(record.card),
    is3ds: outcome.threeDs,
    riskAction: outcome.riskAction,
    riskScore: outcome.riskScore,
    resultInfo: outcome.resultInfo,
  });
  const response: WireRecord = {
    ...echo(record, ctx),
    transaction_id: order.transactionId,
    card: order.maskedCard,
    order_status: outcome.approved ? '1' : '0',
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
  ctx.notify('payment', record.notify_url, order.transactionId, response);
  return response;
}

/** Alternative-method variant of /v1/authorise: authorised at once (UNKNOWNS U22), `issuer_url` leads to a sandbox page. */
export function authoriseAlternative(record: WireRecord, ctx: HandlerContext): WireRecord {
  if (duplicateOrderNo(record, ctx)) return { ...echo(record, ctx), issuer_url: '' };
  const order = newOrder(record, ctx, { variant: 'alternative', state: 'authorised' });
  const response = { ...echo(record, ctx), issuer_url: `${ctx.baseUrl}/sandbox/pay/${order.transactionId}` };
  ctx.notify('payment', record.notify_url, order.transactionId, { ...response, transaction_id: order.transactionId, order_status: '1', result_info: SUCCESS });
  return response;
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** /v1/checkout: the hidden fields of the auto-submitting page (seed 2.4, the catalogue in the spec). */
export function checkout(record: WireRecord, ctx: HandlerContext): { fields: [string, string][]; action: string } | null {
  if (duplicateOrderNo(record, ctx)) return null;
  const order = newOrder(record, ctx, { variant: 'checkout', state: 'authorised' });
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
  ctx.notify('payment', record.notify_url, order.transactionId, { ...echo(record, ctx), transaction_id: order.transactionId, order_status: '1', result_info: SUCCESS });
  return { fields: [...fields], action: `${ctx.baseUrl}/sandbox/pay/${order.transactionId}` };
}
