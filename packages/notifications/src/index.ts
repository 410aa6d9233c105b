export {
  NOTIFICATION_KINDS,
  NOTIFICATION_TYPE,
  NOTIFICATION_VERSION,
  NOTIFYING_OPERATIONS,
  ORDER_CHANGE_KINDS,
  PAYMENT_KINDS,
  PAYOUT_KINDS,
  SUBSCRIPTION_KINDS,
  isNotificationKind,
  isNotifyingOperation,
  type NotificationKind,
  type NotifyingOperation,
  type OrderChangeKind,
  type PaymentKind,
  type PayoutKind,
  type SubscriptionKind,
} from './envelope/kinds.ts';
export type {
  AlternativePaymentNotification,
  CancelledNotification,
  CapturedNotification,
  CardPaymentNotification,
  ChangeNotification,
  CheckoutPaymentNotification,
  NotificationEnvelope,
  NotificationEvent,
  NotificationOfKind,
  PaymentNotification,
  PaymentResult,
  PayoutNotification,
  RefundedNotification,
  RefundResult,
  ReviewedNotification,
  SubscriptionCancelledNotification,
  SubscriptionCancelResult,
} from './envelope/event.ts';
export { createNotificationEvent, newEventId, type NotificationEventInput } from './envelope/create-event.ts';
export { envelopeProblems, isNotificationEvent } from './envelope/check-envelope.ts';
export {
  NotificationNotRecordedError,
  NotificationRefusedError,
  type NotificationNotRecordedDetails,
  type NotificationRefusalDetails,
  type NotificationRefusalReason,
} from './errors.ts';
export {
  headerValue,
  type DecodeInput,
  type DecodedNotification,
  type EncodeContext,
  type EncodedNotification,
  type HeaderSource,
  type NotificationDecoder,
  type NotificationEncoder,
} from './format/format.ts';
export { decodeGwNotification, encodeGwNotification } from './format/gw-envelope.ts';
export { formatSignatureHeader, SIGNATURE_HEADER, type SignatureHeader } from './format/signature-header.ts';
export { notificationMessage } from './format/signed-message.ts';
export { constructEvent, constructEventAsync } from './receive/verify.ts';
export type { VerifyOptions } from './receive/verify-settings.ts';
export { createNotificationReceiver, type NotificationReceiver, type ReceiverOptions } from './receive/receiver.ts';
export { handleByKind, type KindHandler, type KindHandlers } from './receive/by-kind.ts';
export type { ReceiverAnswer, ReceiverOutcome } from './receive/answer.ts';
export type { ClaimResult, DedupeStore, SyncDedupeStore } from './dedupe/store.ts';
export { createMemoryDedupeStore, type MemoryDedupeStoreOptions } from './dedupe/memory-store.ts';
export { createFileDedupeStore } from './dedupe/file-store.ts';
