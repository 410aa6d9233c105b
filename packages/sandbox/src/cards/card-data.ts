// Defence in depth: whatever got through validation, card number, security code and expiry never leave the sandbox
// in a page, an answer, a notification or its state. The walk and the fields are @gw/types' (x-gw-secret).
import { withoutCardData as copyWithoutCardData, type CardDataMember } from '@gw/types';

/** A card number already masked (first six, asterisks, last four) or an empty value: safe to show. */
const SHOWABLE = /^(?:\d{0,6}\*+\d{0,4})?$/;

function keepShowable({ value }: CardDataMember): unknown {
  return typeof value === 'string' && SHOWABLE.test(value) ? value : undefined;
}

/** A copy of `record` without card data members at any level (masked card numbers are kept). */
export function withoutCardData<T extends Record<string, unknown>>(record: T): T {
  return copyWithoutCardData(record, keepShowable).record;
}
