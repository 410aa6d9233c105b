// UNKNOWNS U15: JSON numbers (payout amounts, cart prices) are typed `number`; their exact text on the wire is kept too.
import { operations, specSchema, type OperationName } from '@gw/types';

const numberTexts = new WeakMap<object, Map<string, string>>();

type SourceReviver = (this: object, key: string, value: unknown, context?: { source?: string }) => unknown;

// JSON.parse calls the reviver with the object being built as `this`, so the text is filed under the very object
// the caller gets back. `context.source` is the number's text on the wire (Node 22 and 24).
const keepNumberText: SourceReviver = function (key, value, context) {
  if (typeof value === 'number' && context?.source !== undefined) {
    let texts = numberTexts.get(this);
    if (!texts) numberTexts.set(this, (texts = new Map()));
    texts.set(key, context.source);
  }
  return value;
};

/** Parses JSON keeping the wire text of every number, for `exactNumber`. */
export function parseJsonKeepingNumberText(text: string): unknown {
  return JSON.parse(text, keepNumberText as (this: unknown, key: string, value: unknown) => unknown);
}

/**
 * The exact decimal text of a JSON number in a response, as it was on the wire (`exactNumbers`, on by default), e.g.
 * `exactNumber(payout, 'fee_amount')` → `'0.00'` where `payout.fee_amount` is `0`. `holder` is the object (or array)
 * that has the member. Undefined when the member is not a number from a response decoded with `exactNumbers`.
 */
export function exactNumber(holder: object, key: string | number): string | undefined {
  return numberTexts.get(holder)?.get(String(key));
}

/** Files the number texts of `from` under `to`, with member names changed by `rename` (field-name overrides). */
export function moveNumberTexts(from: object, to: object, rename: (key: string) => string): void {
  const texts = numberTexts.get(from);
  if (!texts) return;
  const moved = new Map<string, string>();
  for (const [key, text] of texts) moved.set(rename(key), text);
  numberTexts.set(to, moved);
}

function reachesNumber(node: unknown, seen: Set<unknown>): boolean {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  const schema = node as Record<string, unknown>;
  const type = schema.type;
  if (type === 'number' || type === 'integer' || (Array.isArray(type) && (type.includes('number') || type.includes('integer')))) return true;
  const name = specSchema.refName(schema);
  if (name !== null && reachesNumber(specSchema.named(name), seen)) return true;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' || key.startsWith('x-') || key === 'examples' || key === 'default') continue;
    if (Array.isArray(value) ? value.some((item) => reachesNumber(item, seen)) : reachesNumber(value, seen)) return true;
  }
  return false;
}

const hasNumbers = new Map<OperationName, boolean>();

/** True when the operation's response schema has a number anywhere (derived from the spec once per operation). */
export function responseHasNumbers(operation: OperationName): boolean {
  let found = hasNumbers.get(operation);
  if (found === undefined) hasNumbers.set(operation, (found = reachesNumber(specSchema.named(operations[operation].responseSchema), new Set())));
  return found;
}
