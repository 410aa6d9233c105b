import type { NotificationEvent } from './event.ts';
import { isNotificationKind, isNotifyingOperation, NOTIFICATION_TYPE, NOTIFICATION_VERSION, NOTIFYING_OPERATIONS } from './kinds.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every way `value` is not a version-1 envelope, as one-line problems (empty when it is one). */
export function envelopeProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  if (value.type !== NOTIFICATION_TYPE) problems.push(`type must be "${NOTIFICATION_TYPE}"`);
  if (value.version !== NOTIFICATION_VERSION) problems.push(`version must be ${NOTIFICATION_VERSION} (this package reads version ${NOTIFICATION_VERSION} only)`);
  if (typeof value.id !== 'string' || value.id === '' || value.id.length > 200) problems.push('id must be a non-empty string of at most 200 characters');
  const knownKind = isNotificationKind(value.kind);
  if (!knownKind) problems.push('kind is not a known event kind');
  if (!isNotifyingOperation(value.operation)) problems.push('operation is not an operation whose result is notified');
  else if (knownKind && !(NOTIFYING_OPERATIONS[value.operation] as readonly string[]).includes(value.kind as string)) {
    problems.push(`kind ${value.kind} does not belong to operation ${value.operation}`);
  }
  if (typeof value.created_at !== 'string' || !ISO_UTC.test(value.created_at) || Number.isNaN(Date.parse(value.created_at))) {
    problems.push('created_at must be an ISO 8601 date-time');
  }
  if (!isPlainObject(value.data)) problems.push('data must be an object');
  return problems;
}

/** True for a version-1 envelope. */
export function isNotificationEvent(value: unknown): value is NotificationEvent {
  return envelopeProblems(value).length === 0;
}
