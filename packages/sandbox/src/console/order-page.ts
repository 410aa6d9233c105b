import type { ControlDeps } from '../control/control-deps.ts';
import { findOrder, OPERATOR_ACTIONS } from '../control/orders.ts';
import { fromMinorUnits } from '../state/money.ts';
import { challengePath, payPath } from '../state/pay-token.ts';
import type { SandboxOrder } from '../state/state.ts';
import { html, segment, type SafeHtml } from './html.ts';
import { page, stateBadge } from './layout.ts';
import { listTable, type ListColumn } from './list-table.ts';
import { attemptsCell, deliveredBadge, eventCell, notificationColumns, resendForm } from './notifications-page.ts';

const ACTION_LABELS: Record<string, string> = {
  authorise: 'Authorise (shopper paid)',
  decline: 'Decline',
  cancel: 'Cancel (shopper cancelled)',
  expire: 'Expire (shopper left)',
};

const HISTORY_COLUMNS: readonly ListColumn[] = [{ label: 'At (UTC)', cell: 'mono' }, { label: 'Event' }, { label: 'By' }, { label: 'Detail' }];
const REFUND_COLUMNS: readonly ListColumn[] = [
  { label: 'Reference id', cell: 'mono' },
  { label: 'Reference', cell: 'mono' },
  { label: 'Amount', cell: 'num' },
  { label: 'Reason' },
];

function actions(order: SandboxOrder): SafeHtml {
  if (order.state !== 'pending') {
    return html`<p class="muted">
      No operator action: the order is ${order.state.replace('_', ' ')}. The merchant acts on it through the API (capture, cancel, review, refund).
    </p>`;
  }
  const buttons = Object.keys(OPERATOR_ACTIONS).map(
    (action) =>
      html`<form class="inline" method="post" action="/sandbox/console/orders/${segment(order.transactionId)}/actions/${action}">
        <button type="submit" ${action === 'authorise' ? '' : html` class="secondary"`}>${ACTION_LABELS[action]}</button>
      </form> `,
  );
  // The shopper's page is at the order's pay token (a challenged card payment has only its 3-D Secure page).
  const shopperPage = order.variant === 'card' ? challengePath(order) : payPath(order);
  return html`<p class="muted">
      The order waits for the shopper: open <a href="${shopperPage}">the shopper's page</a>, or act in their place (the notification is sent at once).
    </p>
    <div>${buttons}</div>`;
}

function details(deps: ControlDeps, order: SandboxOrder): SafeHtml {
  return html`<dl>
    <dt>State</dt>
    <dd>${stateBadge(order.state)}</dd>
    <dt>Order no.</dt>
    <dd class="mono">${order.orderNo}</dd>
    <dt>Amount</dt>
    <dd>${order.amount} ${order.currency}</dd>
    <dt>Captured</dt>
    <dd>${fromMinorUnits(order.capturedMinor)} ${order.currency}</dd>
    <dt>Refunded</dt>
    <dd>${fromMinorUnits(deps.state.refundedMinor(order))} ${order.currency}</dd>
    <dt>Kind</dt>
    <dd>${order.variant}</dd>
    <dt>Merchant / account</dt>
    <dd class="mono">${order.merchantId} / ${order.accountId}</dd>
    <dt>Card</dt>
    <dd class="mono">${order.maskedCard || '—'}</dd>
    <dt>Result</dt>
    <dd class="mono">${order.state === 'pending' ? 'none yet (waits for the shopper)' : order.resultInfo}</dd>
    <dt>Risk</dt>
    <dd>${order.state === 'pending' ? 'none yet' : `${order.riskAction} (${order.riskScore})`}</dd>
    ${
      order.recurringId
        ? html`<dt>Subscription</dt>
            <dd class="mono">${order.recurringId}</dd>`
        : ''
    }
    <dt>Created (UTC)</dt>
    <dd class="mono">${order.createdAt.toISOString()}</dd>
  </dl>`;
}

/** One order: details, the actions a shopper or operator could take, history, refunds, notifications. */
export function orderPage(deps: ControlDeps, transactionId: string, notice: string | null): string {
  const order = findOrder(deps, transactionId);
  const history = order.history.map((e) => [e.at.toISOString().replace('T', ' ').slice(0, 19), e.event, e.by, e.detail ?? '']);
  const refunds = order.refunds.map((r) => [r.referenceId, r.reference, `${fromMinorUnits(r.amountMinor)} ${order.currency}`, r.reason]);
  const deliveries = deps.state.notifications.filter((d) => d.kind === 'payment' && d.key === order.transactionId);
  const notes = deliveries.map((d) => [
    d.id,
    eventCell(d),
    d.url,
    deliveredBadge(d),
    attemptsCell(d),
    resendForm(d, `/sandbox/console/orders/${segment(order.transactionId)}`),
  ]);
  const content = html`<p><a href="/sandbox/console">← Orders</a></p>
    <h1>Order <span class="mono">${order.transactionId}</span></h1>
    ${details(deps, order)}
    <h2>Actions</h2>
    ${actions(order)}
    <h2>History</h2>
    ${listTable('History', HISTORY_COLUMNS, history, 'No events.')}
    <h2>Refunds</h2>
    ${refunds.length > 0 ? listTable('Refunds', REFUND_COLUMNS, refunds, '') : html`<p class="muted">None.</p>`}
    <h2>Notifications</h2>
    ${notes.length > 0 ? listTable('Notifications', notificationColumns(false), notes, '') : html`<p class="muted">None (the payment had no notify_url, or none was due yet).</p>`}`;
  return page(`Order ${order.transactionId}`, 'orders', content, notice);
}
