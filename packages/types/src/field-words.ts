// Words field names are written both in full and abbreviated: each pair is one word (order_number is order_no).
const SAME_WORD: ReadonlyMap<string, string> = new Map([
  ['number', 'no'],
  ['num', 'no'],
  ['nr', 'no'],
  ['identifier', 'id'],
  ['reference', 'ref'],
  ['amount', 'amt'],
  ['quantity', 'qty'],
  ['address', 'addr'],
  ['description', 'desc'],
  ['transaction', 'txn'],
  ['message', 'msg'],
]);

/**
 * A field name as its words (snake_case, camelCase or kebab-case alike), each abbreviation in one spelling, joined by
 * `_`: `orderNumber`, `order-no` and `order_no` are all `order_no`; `transactionId` is `txn_id`.
 */
export function fieldWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-\s.]+/)
    .filter(Boolean)
    .map((word) => SAME_WORD.get(word) ?? word)
    .join('_');
}
