import type {
  AlternativeRespon,
  CancelOrderResult,
  CancelSubscriptionResponse,
  CaptureOrderResult,
  CardRespon,
  PayoutResponse,
  RefundOrderResult,
  ReviewOrderResult,
} from '@gw/types';
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

/**
 * A refund's element result plus where the order stands after it (UNKNOWNS U44: the sandbox's own members):
 * `refund_state` `partial` (some of the captured amount is left) or `full`, and `refunded_amount`, all refunded so far.
 */
export type RefundResult = RefundOrderResult & { readonly refund_state: 'partial' | 'full'; readonly refunded_amount: string };

/** An authorised order was captured: the capture's element result for it. */
export type CapturedNotification = NotificationEnvelope<'payment.captured', 'capture', CaptureOrderResult>;
/** A captured order was refunded, partly or fully (`data.refund_state`). */
export type RefundedNotification = NotificationEnvelope<'payment.refunded', 'refund', RefundResult>;
/** An authorised order was cancelled by `/v1/cancel` (a redirect payment the shopper cancelled has operation `checkout` or `authoriseAlternative`). */
export type CancelledNotification = NotificationEnvelope<'payment.cancelled', 'cancel', CancelOrderResult>;
/** An authorised order was reviewed: `data.review_flag` `1` approved, `0` rejected (the order is then cancelled). */
export type ReviewedNotification = NotificationEnvelope<'payment.reviewed', 'review', ReviewOrderResult>;
/** The cancellation's result, plus `transaction_id`: the subscription's first payment (the sandbox's own member, UNKNOWNS U44). */
export type SubscriptionCancelResult = Omit<CancelSubscriptionResponse, 'encryption_data'> & { readonly transaction_id: string };
/** A subscription was cancelled (it is `Inactived` from now on); sent once, not for a repeated cancel. */
export type SubscriptionCancelledNotification = NotificationEnvelope<'subscription.cancelled', 'cancelSubscription', SubscriptionCancelResult>;

/** A later change to an existing order or subscription. */
export type ChangeNotification = CapturedNotification | RefundedNotification | CancelledNotification | ReviewedNotification | SubscriptionCancelledNotification;

/** Every notification of envelope version 1: narrow on `kind` or `operation`. */
export type NotificationEvent = PaymentNotification | PayoutNotification | ChangeNotification;

/** The notification of one kind, e.g. `NotificationOfKind<'payment.refunded'>` (for `payment.cancelled`: narrow on `operation`). */
export type NotificationOfKind<K extends NotificationKind> = NotificationEvent extends infer E
  ? E extends NotificationEvent
    ? K extends E['kind']
      ? E & { readonly kind: K }
      : never
    : never
  : never;
