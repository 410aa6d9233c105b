// UNKNOWNS U05: every field is optional on the wire, but the sandbox does not act on a payment or an order element
// without the fields it needs to act on. Refusing them is the sandbox's choice, not a claim about the gateway.
import { text, type WireRecord } from '../wire/wire-record.ts';

/** What a payment (card or alternative authorise, checkout) needs before the sandbox takes it. */
export const PAYMENT_NEEDS = ['order_no', 'amount', 'currency'] as const;

/** What a capture, cancel or refund element needs before the sandbox acts on its order. */
export const ELEMENT_NEEDS = ['amount', 'currency'] as const;

/** The fields of `needs` that `record` lacks (absent, not a string, or empty). */
export function missingFields(record: WireRecord, needs: readonly string[]): string[] {
  return needs.filter((field) => text(record, field) === '');
}
