import type { ControlDeps } from '../control/control-deps.ts';
import { listOrders, ORDER_STATES, orderFilter } from '../control/orders.ts';
import { fromMinorUnits } from '../state/money.ts';
import { html, segment } from './html.ts';
import { listTable, type ListColumn } from './list-table.ts';
import { page, stateBadge } from './layout.ts';

const ORDER_COLUMNS: readonly ListColumn[] = [
  { label: 'Transaction' },
  { label: 'Order no.', cell: 'mono wrap' },
  { label: 'State' },
  { label: 'Amount', cell: 'num' },
  { label: 'Refunded', cell: 'num' },
  { label: 'Kind' },
  { label: 'Merchant', cell: 'mono' },
  { label: 'Created (UTC)', cell: 'mono' },
];

/** The orders list, newest first, filtered by state. */
export function ordersPage(deps: ControlDeps, query: URLSearchParams, notice: string | null): string {
  const filter = orderFilter(new URLSearchParams([...query].filter(([k]) => k !== 'notice')));
  const orders = listOrders(deps, filter);
  const options = ORDER_STATES.map((s) => html`<option value="${s}" ${filter.state === s ? html` selected` : ''}>${s.replace('_', ' ')}</option>`);
  const rows = orders.map((o) => [
    html`<a class="mono" href="/sandbox/console/orders/${segment(o.transactionId)}">${o.transactionId}</a>`,
    o.orderNo,
    stateBadge(o.state),
    `${o.amount} ${o.currency}`,
    o.refunds.length > 0 ? `${fromMinorUnits(deps.state.refundedMinor(o))} ${o.currency}` : html`<span class="muted">—</span>`,
    o.variant,
    o.merchantId,
    o.createdAt.toISOString().replace('T', ' ').slice(0, 19),
  ]);
  const content = html`<h1>Orders</h1>
    <form class="card" method="get" action="/sandbox/console">
      <label
        >State<select name="state">
          <option value="">every state</option>
          ${options}
        </select></label
      >
      <label>Merchant<input name="merchant_id" value="${filter.merchantId ?? ''}" size="10" /></label><button type="submit">Filter</button>
    </form>
    <p class="muted">${orders.length} of ${deps.state.orders.size} order(s) shown, newest first.</p>
    ${listTable('Orders', ORDER_COLUMNS, rows, 'No orders yet.')}`;
  return page('Orders', 'orders', content, notice);
}
