// UNKNOWNS U44: the gw notification envelope, version 1 (the gateway's own format and kinds are not shown).
/** The `type` member of every gw notification envelope. */
export const NOTIFICATION_TYPE = 'gw.notification';

/** The envelope version this package reads and the sandbox writes; a change of shape gets a new version. */
export const NOTIFICATION_VERSION = 1;

/** Every payment event kind: the result a payment reached (`payment.cancelled` also: an authorisation cancelled). */
export const PAYMENT_KINDS = ['payment.authorised', 'payment.declined', 'payment.cancelled', 'payment.expired'] as const;

/** Every payout event kind. */
export const PAYOUT_KINDS = ['payout.completed', 'payout.failed'] as const;

/** Every kind of a later change to an existing order: captured, refunded (partly or fully), reviewed. */
export const ORDER_CHANGE_KINDS = ['payment.captured', 'payment.refunded', 'payment.reviewed'] as const;

/** Every subscription event kind. */
export const SUBSCRIPTION_KINDS = ['subscription.cancelled'] as const;

/** Every event kind of envelope version 1. */
export const NOTIFICATION_KINDS = [...PAYMENT_KINDS, ...PAYOUT_KINDS, ...ORDER_CHANGE_KINDS, ...SUBSCRIPTION_KINDS] as const;

/** A payment event kind, e.g. `payment.authorised`. */
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
/** A payout event kind, e.g. `payout.completed`. */
export type PayoutKind = (typeof PAYOUT_KINDS)[number];
/** A kind of a later change to an order, e.g. `payment.captured`. */
export type OrderChangeKind = (typeof ORDER_CHANGE_KINDS)[number];
/** A subscription event kind: `subscription.cancelled`. */
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];
/** Any event kind of envelope version 1. */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The operations whose results are notified, and the kinds each may carry: the one table of which kind comes from where. */
export const NOTIFYING_OPERATIONS = {
  authoriseCard: PAYMENT_KINDS,
  authoriseAlternative: PAYMENT_KINDS,
  checkout: PAYMENT_KINDS,
  payout: PAYOUT_KINDS,
  capture: ['payment.captured'],
  refund: ['payment.refunded'],
  cancel: ['payment.cancelled'],
  review: ['payment.reviewed'],
  cancelSubscription: SUBSCRIPTION_KINDS,
} as const satisfies Record<string, readonly NotificationKind[]>;

/** An operation whose result is notified. */
export type NotifyingOperation = keyof typeof NOTIFYING_OPERATIONS;

const KINDS: ReadonlySet<string> = new Set(NOTIFICATION_KINDS);

/** True for a kind of envelope version 1. */
export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === 'string' && KINDS.has(value);
}

/** True for an operation whose result is notified. */
export function isNotifyingOperation(value: unknown): value is NotifyingOperation {
  return typeof value === 'string' && Object.hasOwn(NOTIFYING_OPERATIONS, value);
}
