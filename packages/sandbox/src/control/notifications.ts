// Notifications in the control API: the delivery log with every attempt, and resend.
import type { NotificationDelivery } from '../state.ts';
import type { ControlDeps } from './control-deps.ts';
import { notFound } from './control-error.ts';
import { notificationView } from './views.ts';

/** The notification with this id (a decimal number in the path), or a 404. */
export function findNotification(deps: ControlDeps, idText: string): NotificationDelivery {
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : NaN;
  const delivery = deps.state.notifications.find((d) => d.id === id);
  if (!delivery) throw notFound('notification', idText);
  return delivery;
}

/** The JSON of the delivery log, newest first. */
export function notificationsJson(deps: ControlDeps) {
  return { notifications: [...deps.state.notifications].reverse().map((d) => notificationView(d)) };
}

/** Delivers a notification again (same body), with a fresh round of attempts; the attempts join its log. */
export function resendNotification(deps: ControlDeps, idText: string): NotificationDelivery {
  const delivery = findNotification(deps, idText);
  deps.notifier.resend(delivery.id);
  return delivery;
}
