import { secretFields } from '@gw/types';

const SECRET: ReadonlySet<string> = new Set(secretFields);
/** Deeper than any batch element goes: a member nested further is dropped as if it held card data. */
const MAX_DEPTH = 32;

/** An input order with its card data taken out, and the paths of what was taken (`card`, `note.holder.card`). */
export interface WithoutCardData {
  readonly order: Record<string, unknown>;
  readonly cardFields: readonly string[];
}

/**
 * Copies an input order without card data: no batch operation carries a card number, security code or expiry, so a
 * member that is one, or holds one at any depth (or nests deeper than MAX_DEPTH), is left out and named, and the
 * order is refused at intake. The walk is iterative, with an explicit stack: the input is the caller's, not ours.
 */
export function withoutCardData(input: object): WithoutCardData {
  if (isPlainAndClean(input)) return { order: { ...(input as Record<string, unknown>) }, cardFields: NONE };
  const order: Record<string, unknown> = {};
  const cardFields: string[] = [];
  for (const key of Object.keys(input)) {
    const value = (input as Record<string, unknown>)[key];
    if (SECRET.has(key)) cardFields.push(key);
    else if (value !== null && typeof value === 'object' && secretsWithin(value, key, cardFields)) continue;
    // `__proto__` from JSON.parse stays a member; plain assignment would set the prototype.
    else if (key === '__proto__') Object.defineProperty(order, key, { value, enumerable: true, writable: true, configurable: true });
    else order[key] = value;
  }
  return { order, cardFields };
}

const NONE: readonly string[] = [];

/** The usual order: flat (no member is an object) and no member named like card data. */
function isPlainAndClean(input: object): boolean {
  for (const key in input) {
    if (SECRET.has(key)) return false;
    const value = (input as Record<string, unknown>)[key];
    if (value !== null && typeof value === 'object') return false;
  }
  return true;
}

/** Adds the paths of secret fields inside `value` to `found`; true if there were any. */
function secretsWithin(value: object, path: string, found: string[]): boolean {
  const before = found.length;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_DEPTH) {
      found.push(`${item.path} (nested deeper than ${MAX_DEPTH})`);
      continue;
    }
    for (const [key, member] of Object.entries(item.value)) {
      const at = `${item.path}.${key}`;
      if (SECRET.has(key)) found.push(at);
      else stack.push({ value: member, path: at, depth: item.depth + 1 });
    }
  }
  return found.length > before;
}
