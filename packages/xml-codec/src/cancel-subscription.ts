import { operations, xmlRequestRoot, type CancelSubscriptionRequest } from '@gw/types';
import { readDecodeInput, type DecodeInput, type DecodeOptions } from './decode-options.ts';
import { buildRecordPlan } from './element-plan.ts';
import { decodeRecord, encodeXmlRecord, parseRootElement } from './xml-record.ts';

/** Options of `encodeCancelSubscription`. */
export interface EncodeCancelSubscriptionOptions {
  /** Root element name; not shown by the seed (UNKNOWNS U35), default `xmlRequestRoot` (`request`). */
  readonly root?: string;
}

/** Options of `decodeCancelSubscription`. */
export interface DecodeCancelSubscriptionOptions extends DecodeOptions {
  /** Root element name required; default `xmlRequestRoot` (`request`); `null` accepts any root element. */
  readonly root?: string | null;
}

const operation = operations.cancelSubscription;
const plan = buildRecordPlan(operation.requestSchema);

/** Encodes the `/v1/cancelsubscription` XML request body (§2.7 fields in spec order, text-only children). */
export function encodeCancelSubscription(record: CancelSubscriptionRequest, options?: EncodeCancelSubscriptionOptions): string {
  return encodeXmlRecord(record, plan, options?.root ?? xmlRequestRoot, operation.name);
}

/** Decodes a `/v1/cancelsubscription` XML request body; elements the spec does not list are kept as extra properties. */
export function decodeCancelSubscription(xml: DecodeInput, options?: DecodeCancelSubscriptionOptions): CancelSubscriptionRequest {
  const text = readDecodeInput(xml, options, 'xml');
  const { name, value } = parseRootElement(text, options?.root === undefined ? xmlRequestRoot : options.root);
  return decodeRecord(value, plan, name) as CancelSubscriptionRequest;
}
