import type { NotificationEvent } from './event.ts';
import { isIsoDateTime } from './iso-date-time.ts';
import { isNotificationKind, isNotifyingOperation, NOTIFICATION_TYPE, NOTIFICATION_VERSION, NOTIFYING_OPERATIONS } from './kinds.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEventId(id: unknown): boolean {
  return typeof id === 'string' && id !== '' && id.length <= 200;
}

// The kinds each notifying operation may carry.
const KINDS_BY_OPERATION: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(NOTIFYING_OPERATIONS).map(([operation, kinds]) => [operation, new Set<string>(kinds)]),
);

/** Every way `value` is not a version-1 envelope, as one-line problems (empty when it is one). */
export function envelopeProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  if (value.type !== NOTIFICATION_TYPE) problems.push(`type must be "${NOTIFICATION_TYPE}"`);
  if (value.version !== NOTIFICATION_VERSION)
    problems.push(`version must be ${NOTIFICATION_VERSION} (this package reads version ${NOTIFICATION_VERSION} only)`);
  if (!isEventId(value.id)) problems.push('id must be a non-empty string of at most 200 characters');
  const knownKind = isNotificationKind(value.kind);
  if (!knownKind) problems.push('kind is not a known event kind');
  if (!isNotifyingOperation(value.operation)) problems.push('operation is not an operation whose result is notified');
  else if (knownKind && !KINDS_BY_OPERATION.get(value.operation)!.has(value.kind as string)) {
    problems.push(`kind ${value.kind} does not belong to operation ${value.operation}`);
  }
  if (typeof value.created_at !== 'string' || !isIsoDateTime(value.created_at)) problems.push('created_at must be an ISO 8601 date-time');
  if (!isPlainObject(value.data)) problems.push('data must be an object');
  return problems;
}

/** True for a version-1 envelope: `envelopeProblems(value)` finds none. */
export function isNotificationEvent(value: unknown): value is NotificationEvent {
  return envelopeProblems(value).length === 0;
}
