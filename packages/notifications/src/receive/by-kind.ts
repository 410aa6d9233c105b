import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { NotificationEvent, NotificationOfKind } from '../envelope/event.ts';
import { isNotificationKind, type NotificationKind } from '../envelope/kinds.ts';

/** A handler of one kind's events: it gets the event typed for that kind. */
export type KindHandler<K extends NotificationKind, Context = void> = (event: NotificationOfKind<K>, context: Context) => void | Promise<void>;

/** At most one handler per kind, e.g. `{ 'payment.captured': (event) => book(event.data.amount) }`. */
export type KindHandlers<Context = void> = { readonly [K in NotificationKind]?: KindHandler<K, Context> };

type AnyHandler<Context> = (event: NotificationEvent, context: Context) => void | Promise<void>;

/**
 * An `onEvent` that runs the handler of the event's kind with the event typed for it; an event of a kind without a
 * handler goes to `otherwise`, or is acknowledged without running anything. Refuses unknown kinds at once (`GW_CONFIG`).
 */
export function handleByKind<Context = void>(handlers: KindHandlers<Context>, otherwise?: AnyHandler<Context>): AnyHandler<Context> {
  const problems = Object.entries(handlers ?? {}).flatMap(([kind, handler]) => [
    ...(isNotificationKind(kind) ? [] : [`${kind} is not a notification kind`]),
    ...(typeof handler === 'function' ? [] : [`the handler of ${kind} must be a function (event) => void | Promise<void>`]),
  ]);
  if (otherwise !== undefined && typeof otherwise !== 'function') problems.push('otherwise must be a function (event) => void | Promise<void>');
  if (problems.length > 0) throw new GwError(GW_ERROR_CODES.config, `Notification handlers: ${problems.join('; ')}.`, { problems });
  const byKind = new Map(Object.entries(handlers) as [NotificationKind, AnyHandler<Context>][]);
  return (event, context) => {
    const handler = byKind.get(event.kind) ?? otherwise;
    return handler?.(event, context);
  };
}
