import type { ControlDeps } from '../control/control-deps.ts';
import { listOrders, ORDER_STATES, orderFilter } from '../control/orders.ts';
import { fromMinorUnits } from '../money.ts';
import { html, segment } from './html.ts';
import { page, stateBadge } from './layout.ts';

/** The orders list, newest first, filtered by state. */
export function ordersPage(deps: ControlDeps, query: URLSearchParams, notice: string | null): string {
  const filter = orderFilter(new URLSearchParams([...query].filter(([k]) => k !== 'notice')));
  const orders = listOrders(deps, filter);
  const options = ORDER_STATES.map((s) => html`<option value="${s}"${filter.state === s ? html` selected` : ''}>${s.replace('_', ' ')}</option>`);
  const rows = orders.map(
    (o) => html`<tr><td><a class="mono" href="/sandbox/console/orders/${segment(o.transactionId)}">${o.transactionId}</a></td><td class="mono">${o.orderNo}</td>
<td>${stateBadge(o.state)}</td><td class="num">${o.amount} ${o.currency}</td><td class="num">${o.refunds.length > 0 ? `${fromMinorUnits(deps.state.refundedMinor(o))} ${o.currency}` : ''}</td>
<td>${o.variant}</td><td class="mono">${o.merchantId}</td><td class="mono">${o.createdAt.toISOString().replace('T', ' ').slice(0, 19)}</td></tr>`,
  );
  const content = html`<h1>Orders</h1>
<form class="card" method="get" action="/sandbox/console"><label>State<select name="state"><option value="">every state</option>${options}</select></label>
<label>Merchant<input name="merchant_id" value="${filter.merchantId ?? ''}" size="10"></label><button type="submit">Filter</button></form>
<p class="muted">${orders.length} of ${deps.state.orders.size} order(s) shown, newest first.</p>
<div class="scroll"><table><thead><tr><th>Transaction</th><th>Order no.</th><th>State</th><th>Amount</th><th>Refunded</th><th>Kind</th><th>Merchant</th><th>Created (UTC)</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="8">No orders yet.</td></tr>`}</tbody></table></div>`;
  return page('Orders', 'orders', content, notice);
}
