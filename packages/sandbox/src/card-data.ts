// Defence in depth: whatever got through validation, card number, security code and expiry never leave the sandbox
// in a page, an answer, a notification or its state. The fields are the spec's x-gw-secret ones (@gw/types).
import { secretFields } from '@gw/types';

const SECRET = new Set<string>(secretFields);

/** A card number already masked (first six, asterisks, last four) or an empty value: safe to show. */
const SHOWABLE = /^(?:\d{0,6}\*+\d{0,4})?$/;

function isCardData(key: string, value: unknown): boolean {
  return SECRET.has(key) && !(typeof value === 'string' && SHOWABLE.test(value));
}

function shallowCopy(value: unknown): unknown {
  if (Array.isArray(value)) return [...value];
  return value && typeof value === 'object' ? { ...(value as Record<string, unknown>) } : value;
}

/** A copy of `record` without card data members at any level (iterative; masked card numbers are kept). */
export function withoutCardData<T extends Record<string, unknown>>(record: T): T {
  const root = { ...record };
  const stack: (Record<string, unknown> | unknown[])[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      const members = node as Record<string | number, unknown>;
      if (typeof key === 'string' && isCardData(key, members[key])) {
        delete members[key];
        continue;
      }
      const copy = shallowCopy(members[key]);
      members[key] = copy;
      if (copy && typeof copy === 'object') stack.push(copy as Record<string, unknown> | unknown[]);
    }
  }
  return root;
}
