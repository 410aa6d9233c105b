import { isNotificationKind, type NotificationKind } from '@gw/notifications';
import type { WireRecord } from '../wire/wire-record.ts';
import { SANDBOX_PAYMENT_STATUS } from '../state/payment-status.ts';

/** What a caller of `notify` names: a whole event kind, or just `payment` / `payout` (the kind is then read from the record). */
export type SandboxNotifyKind = 'payment' | 'payout' | NotificationKind;

// UNKNOWNS U44: the sandbox's own mapping from a result record to an event kind.
const PAYMENT_KIND_BY_STATUS: Readonly<Record<string, NotificationKind>> = {
  '1': 'payment.authorised',
  '0': 'payment.declined',
  [SANDBOX_PAYMENT_STATUS.authorised]: 'payment.authorised',
  [SANDBOX_PAYMENT_STATUS.declined]: 'payment.declined',
  [SANDBOX_PAYMENT_STATUS.cancelled]: 'payment.cancelled',
  [SANDBOX_PAYMENT_STATUS.expired]: 'payment.expired',
};

/** The event kind of a result record: a payment by its `order_status`, a payout by its `status`. */
export function eventKindOf(kind: SandboxNotifyKind, record: WireRecord): NotificationKind {
  if (isNotificationKind(kind)) return kind;
  if (kind === 'payout') return String(record.status ?? '').toUpperCase() === 'COMPLETED' ? 'payout.completed' : 'payout.failed';
  return PAYMENT_KIND_BY_STATUS[String(record.order_status ?? '')] ?? 'payment.declined';
}
