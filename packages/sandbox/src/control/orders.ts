// Orders in the control API: list with filters, one order with its history, and operator actions on a pending order.
import type { OrderState, SandboxOrder } from '../state/state.ts';
import type { ControlDeps } from './control-deps.ts';
import { CONTROL_ERROR_CODES, ControlError, invalid, notFound } from './control-error.ts';
import { settleRedirectPayment, type RedirectOutcome } from '../lifecycle/redirect-payment.ts';
import { orderDetail, orderSummary, refundView } from './views.ts';

/** Every state an order can be in. */
export const ORDER_STATES: readonly OrderState[] = ['pending', 'authorised', 'declined', 'captured', 'partially_refunded', 'refunded', 'cancelled', 'expired'];
/** What an operator may do to a pending order, and the outcome each gives. */
export const OPERATOR_ACTIONS: Readonly<Record<string, RedirectOutcome>> = {
  authorise: 'authorised',
  decline: 'declined',
  cancel: 'cancelled',
  expire: 'expired',
};

/** Filters of the orders list. */
export interface OrderFilter {
  readonly state?: OrderState;
  readonly merchantId?: string;
  readonly limit: number;
}

/** Reads `?state=&merchant_id=&limit=`, refusing every bad value at once. */
export function orderFilter(query: URLSearchParams): OrderFilter {
  const problems: { path: string; message: string }[] = [];
  const state = query.get('state') || undefined;
  if (state !== undefined && !ORDER_STATES.includes(state as OrderState))
    problems.push({ path: 'state', message: `must be one of ${ORDER_STATES.join(', ')}` });
  const limitText = query.get('limit');
  const limit = limitText === null || limitText === '' ? 100 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) problems.push({ path: 'limit', message: 'must be a whole number from 1 to 10000' });
  for (const name of query.keys())
    if (!['state', 'merchant_id', 'limit'].includes(name)) problems.push({ path: name, message: 'is not a filter (state, merchant_id, limit)' });
  if (problems.length > 0) throw invalid('bad order filter', problems);
  return { state: state as OrderState | undefined, merchantId: query.get('merchant_id') || undefined, limit };
}

/** The newest orders first that pass the filter. */
export function listOrders(deps: ControlDeps, filter: OrderFilter): SandboxOrder[] {
  const out: SandboxOrder[] = [];
  const all = [...deps.state.orders.values()];
  for (let i = all.length - 1; i >= 0 && out.length < filter.limit; i--) {
    const order = all[i]!;
    if (filter.state && order.state !== filter.state) continue;
    if (filter.merchantId && order.merchantId !== filter.merchantId) continue;
    out.push(order);
  }
  return out;
}

/** The order, or a 404. */
export function findOrder(deps: ControlDeps, transactionId: string): SandboxOrder {
  const order = deps.state.orders.get(transactionId);
  if (!order) throw notFound('order', transactionId);
  return order;
}

/** Settles a pending order as an operator: authorise, decline, cancel or expire (its notification goes now). */
export function actOnOrder(deps: ControlDeps, transactionId: string, action: string): SandboxOrder {
  const outcome = OPERATOR_ACTIONS[action];
  if (!outcome || !Object.hasOwn(OPERATOR_ACTIONS, action)) {
    throw new ControlError(
      404,
      CONTROL_ERROR_CODES.notFound,
      `no action ${action}; an operator may ${Object.keys(OPERATOR_ACTIONS).join(', ')} a pending order`,
      { action },
    );
  }
  const order = findOrder(deps, transactionId);
  if (order.state !== 'pending') {
    throw new ControlError(
      409,
      CONTROL_ERROR_CODES.notPending,
      `${transactionId} is ${order.state}: only a pending order (checkout or alternative method waiting for the shopper) can be settled by an operator`,
      { transactionId, state: order.state },
    );
  }
  settleRedirectPayment(deps.redirect, order, outcome, 'operator');
  return order;
}

/** The JSON of the orders list. */
export function ordersJson(deps: ControlDeps, query: URLSearchParams) {
  return { orders: listOrders(deps, orderFilter(query)).map((o) => orderSummary(deps.state, o)) };
}

/** The JSON of one order. */
export function orderJson(deps: ControlDeps, transactionId: string) {
  return { order: orderDetail(deps.state, findOrder(deps, transactionId)) };
}

/** Every refund, newest order first. */
export function refundsJson(deps: ControlDeps) {
  const refunds = [];
  for (const order of [...deps.state.orders.values()].reverse()) for (const r of order.refunds) refunds.push(refundView(order, r));
  return { refunds };
}
