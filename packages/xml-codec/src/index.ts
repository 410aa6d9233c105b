export {
  decodeAlternativeRespon,
  decodeCardRespon,
  decodeRespon,
  encodeRespon,
  type DecodedRespon,
  type EncodeResponOptions,
  type ResponVariant,
} from './respon.ts';
export {
  decodeCancelSubscription,
  encodeCancelSubscription,
  type DecodeCancelSubscriptionOptions,
  type EncodeCancelSubscriptionOptions,
} from './cancel-subscription.ts';
export {
  decodeCheckoutPage,
  encodeCheckoutPage,
  type CheckoutAllParams,
  type CheckoutPage,
  type EncodeCheckoutPageOptions,
  type FormEntry,
} from './checkout-page.ts';
export { decodeItems, encodeItems, ITEM_COMPONENT_SEPARATOR, ITEM_RECORD_SEPARATOR, type ItemRecord } from './items.ts';
export { DecodeError, type DecodeErrorDetails, type DecodeFailure, type DecodeFormat } from './decode-error.ts';
export { ItemsFormatError, type ItemsFormatErrorDetails, type ItemsFormatFailure } from './items-format-error.ts';
export { DEFAULT_MAX_INPUT_BYTES, type DecodeInput, type DecodeOptions } from './decode-options.ts';
export type { XmlRecord, XmlValue } from './xml-record.ts';
export { encodeRequestBody, type EncodeRequestBodyOptions, type RequestBodyEncoding } from './request-body.ts';
