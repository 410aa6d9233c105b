import type { ControlDeps } from '../control/control-deps.ts';
import { latestNotifications } from '../control/notifications.ts';
import type { NotificationDelivery } from '../state/state.ts';
import { html, segment, type SafeHtml } from './html.ts';
import { page } from './layout.ts';
import { listTable, type ListColumn } from './list-table.ts';

/** Every attempt of a delivery: time, then the HTTP status or the error. */
export function attemptsCell(d: NotificationDelivery): SafeHtml {
  if (d.attempts.length === 0) return html`<span class="muted">queued</span>`;
  return html`<ol>
    ${d.attempts.map((a) => html`<li><span class="mono">${a.at.toISOString().slice(11, 19)}</span> ${a.status === null ? html`<span class="state bad">${a.error ?? 'no answer'}</span>` : html`<span class="state ${a.status >= 200 && a.status < 300 ? 'ok' : 'bad'}">HTTP ${a.status}</span>`}</li>`)}
  </ol>`;
}

/** The Resend button of a delivery; `back` is where the browser returns. */
export function resendForm(d: NotificationDelivery, back: string): SafeHtml {
  return html`<form class="inline" method="post" action="/sandbox/console/notifications/${segment(d.id)}/resend">
    <input type="hidden" name="back" value="${back}" /><button type="submit" class="secondary" aria-label="Resend notification ${d.id}">Resend</button>
  </form>`;
}

/** The event of a delivery: its kind, its id (shared by duplicates and resends) and which delivery it resends. */
export function eventCell(d: NotificationDelivery): SafeHtml {
  return html`${d.eventKind}<br /><span class="mono muted">${d.eventId}</span
    >${d.resendOf === null ? '' : html`<br /><span class="muted">resend of #${d.resendOf}</span>`}`;
}

/** Whether a delivery reached its URL, as a badge. */
export function deliveredBadge(d: NotificationDelivery): SafeHtml {
  return d.delivered ? html`<span class="state ok">delivered</span>` : html`<span class="state bad">not delivered</span>`;
}

/** The columns of a delivery log (`withFor`: with the order or payout it is about). */
export function notificationColumns(withFor: boolean): readonly ListColumn[] {
  return [
    { label: '#', cell: 'num' },
    { label: 'Event' },
    ...(withFor ? [{ label: 'For' }] : []),
    { label: 'To', cell: 'mono' },
    { label: 'Status' },
    { label: 'Attempts' },
    { label: 'Resend' },
  ];
}

const NOTIFICATION_COLUMNS = notificationColumns(true);

/** The delivery log, newest first, with every attempt and a Resend button. */
export function notificationsPage(deps: ControlDeps, notice: string | null): string {
  const rows = latestNotifications(deps, 200).map((d) => [
    d.id,
    eventCell(d),
    d.kind === 'payment' && deps.state.orders.has(d.key)
      ? html`<a class="mono" href="/sandbox/console/orders/${segment(d.key)}">${d.key}</a>`
      : html`<span class="mono">${d.key}</span>`,
    d.url,
    deliveredBadge(d),
    attemptsCell(d),
    resendForm(d, '/sandbox/console/notifications'),
  ]);
  const content = html`<h1>Notifications</h1>
    <p class="muted">
      ${deps.state.notifications.length} notification(s), the newest 200 shown first. Resend makes a new delivery of the same event (same event id: a receiver
      that de-duplicates acknowledges it without running its handler again).
    </p>
    ${listTable('Notifications', NOTIFICATION_COLUMNS, rows, 'No notifications yet.')}`;
  return page('Notifications', 'notifications', content, notice);
}
