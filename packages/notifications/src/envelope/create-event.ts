import { randomBytes } from 'node:crypto';
import type { NotificationEvent } from './event.ts';
import { NOTIFICATION_TYPE, NOTIFICATION_VERSION } from './kinds.ts';

/** What an event is made of; the id and time are generated unless given. */
export type NotificationEventInput = Pick<NotificationEvent, 'kind' | 'operation' | 'data'> & { readonly id?: string; readonly createdAt?: Date };

/** A fresh event id: `evt_` then 32 random hex digits (unique across processes and restarts). */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}

/** Builds a version-1 envelope; the caller keeps it and delivers the same id on every retry and resend. */
export function createNotificationEvent(input: NotificationEventInput): NotificationEvent {
  return {
    type: NOTIFICATION_TYPE,
    version: NOTIFICATION_VERSION,
    id: input.id ?? newEventId(),
    kind: input.kind,
    created_at: (input.createdAt ?? new Date()).toISOString(),
    operation: input.operation,
    data: input.data,
  } as NotificationEvent;
}
