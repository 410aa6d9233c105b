import type { AlternativeRespon, CardRespon, PayoutResponse } from '@gw/types';
import type { NOTIFICATION_TYPE, NOTIFICATION_VERSION, NotificationKind, PaymentKind, PayoutKind } from './kinds.ts';

/** The result record of an alternative-method or hosted-checkout payment: the request's echo plus its outcome. */
export type PaymentResult = AlternativeRespon & Pick<CardRespon, 'transaction_id' | 'order_status' | 'result_info'>;

/** The envelope every notification has: what happened (`kind`), to which operation's result, when, and the record. */
export interface NotificationEnvelope<K extends NotificationKind, O extends string, D> {
  readonly type: typeof NOTIFICATION_TYPE;
  readonly version: typeof NOTIFICATION_VERSION;
  /** The event id, `evt_` then 32 hex digits: the same on every retry, duplicate and resend of this event. */
  readonly id: string;
  readonly kind: K;
  /** When the event happened (ISO 8601, UTC): the same on every delivery of it. */
  readonly created_at: string;
  /** The operation whose result `data` is. */
  readonly operation: O;
  /** The result record, without card number, security code or expiry. */
  readonly data: D;
}

/** A direct card payment reached its result. */
export type CardPaymentNotification = NotificationEnvelope<PaymentKind, 'authoriseCard', CardRespon>;
/** An alternative-method payment reached its result. */
export type AlternativePaymentNotification = NotificationEnvelope<PaymentKind, 'authoriseAlternative', PaymentResult>;
/** A hosted-checkout payment reached its result. */
export type CheckoutPaymentNotification = NotificationEnvelope<PaymentKind, 'checkout', PaymentResult>;
/** A payout reached its result. */
export type PayoutNotification = NotificationEnvelope<PayoutKind, 'payout', PayoutResponse>;

/** Any payment notification; narrow on `operation` for the record type. */
export type PaymentNotification = CardPaymentNotification | AlternativePaymentNotification | CheckoutPaymentNotification;

/** Every notification of envelope version 1: narrow on `kind` or `operation`. */
export type NotificationEvent = PaymentNotification | PayoutNotification;
