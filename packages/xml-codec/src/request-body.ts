import { operations, type CancelSubscriptionRequest, type OperationName } from '@gw/types';
import { encodeCancelSubscription } from './cancel-subscription.ts';

/** Options of `encodeRequestBody`. */
export interface EncodeRequestBodyOptions {
  /** Root element of an XML body (cancelSubscription); default `xmlRequestRoot` (UNKNOWNS U35). */
  readonly xmlRoot?: string;
}

/**
 * The toolkit's one encoding of a request record, by the operation's declared encoding: JSON (the record's own key
 * order), form (`application/x-www-form-urlencoded`, nested members as JSON text) or XML. The client sends it and the
 * sandbox re-creates it, so a signature over the body (without `encryption_data`) means the same on both sides.
 */
export function encodeRequestBody(operation: OperationName, record: object, options: EncodeRequestBodyOptions = {}): string {
  switch (operations[operation].requestEncoding) {
    case 'json':
      return JSON.stringify(record);
    case 'form':
      return new URLSearchParams(
        Object.entries(record)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      ).toString();
    case 'xml':
      return encodeCancelSubscription(record as CancelSubscriptionRequest, options.xmlRoot === undefined ? {} : { root: options.xmlRoot });
  }
}
