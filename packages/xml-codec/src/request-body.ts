import { GW_ERROR_CODES, GwError, operations, type CancelSubscriptionRequest, type OperationName } from '@gw/types';
import { encodeCancelSubscription } from './cancel-subscription.ts';

/** An encoding a body whose type the seed does not declare may be given instead of the spec's (UNKNOWNS U31). */
export type RequestBodyEncoding = 'json' | 'form';

/** Options of `encodeRequestBody`. */
export interface EncodeRequestBodyOptions {
  /** Root element of an XML body (cancelSubscription); default `xmlRequestRoot` (UNKNOWNS U35). */
  readonly xmlRoot?: string;
  /**
   * `json` or `form` instead of the spec's encoding, for an operation whose body type the seed does not declare
   * (authorise, checkout: UNKNOWNS U31). Refused for the others, whose encoding the seed states.
   */
  readonly encoding?: RequestBodyEncoding;
}

/**
 * The toolkit's one encoding of a request record, by the operation's declared encoding: JSON (the record's own key
 * order), form (`application/x-www-form-urlencoded`, nested members as JSON text) or XML. The client sends it and the
 * sandbox re-creates it, so a signature over the body (without `encryption_data`) means the same on both sides.
 */
export function encodeRequestBody(operation: OperationName, record: object, options: EncodeRequestBodyOptions = {}): string {
  const op = operations[operation];
  const encoding = options.encoding ?? op.requestEncoding;
  if (encoding !== op.requestEncoding) {
    const details = { operation, encoding: String(encoding), declared: op.requestEncoding };
    if (op.requestEncodingDeclared) {
      throw new GwError(
        GW_ERROR_CODES.config,
        `${operation}: the seed declares its body as ${op.requestEncoding}; only bodies whose type it leaves open (authorise, checkout) may be encoded otherwise (UNKNOWNS U31)`,
        details,
      );
    }
    if (encoding !== 'json' && encoding !== 'form')
      throw new GwError(GW_ERROR_CODES.config, `${operation}: a body is encoded as json or form, not ${String(encoding)}`, details);
  }
  switch (encoding) {
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
