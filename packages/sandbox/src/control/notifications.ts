// Notifications in the control API: the delivery log with every attempt, and resend.
import type { NotificationDelivery } from '../state/state.ts';
import type { ControlDeps } from './control-deps.ts';
import { invalid, notFound } from './control-error.ts';
import { notificationView } from './views.ts';

/** The notification with this id (a decimal number in the path), or a 404. */
export function findNotification(deps: ControlDeps, idText: string): NotificationDelivery {
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : NaN;
  const delivery = deps.state.notifications.find((d) => d.id === id);
  if (!delivery) throw notFound('notification', idText);
  return delivery;
}

/** The newest `limit` notifications, newest first. */
export function latestNotifications(deps: ControlDeps, limit: number): NotificationDelivery[] {
  return deps.state.notifications.slice(-limit).reverse();
}

/** The JSON of the delivery log, newest first (`?limit=`, default 100). */
export function notificationsJson(deps: ControlDeps, query: URLSearchParams) {
  const text = query.get('limit');
  const limit = text === null || text === '' ? 100 : Number(text);
  const problems = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) problems.push({ path: 'limit', message: 'must be a whole number from 1 to 10000' });
  for (const name of query.keys()) if (name !== 'limit') problems.push({ path: name, message: 'is not a filter (limit)' });
  if (problems.length > 0) throw invalid('bad notification filter', problems);
  return { notifications: latestNotifications(deps, limit).map((d) => notificationView(d)) };
}

/** Delivers a notification's event again (same event id) as a new delivery with its own attempts (`resendOf` names the first). */
export function resendNotification(deps: ControlDeps, idText: string): NotificationDelivery {
  const delivery = findNotification(deps, idText);
  return deps.notifier.resend(delivery.id) ?? delivery;
}
