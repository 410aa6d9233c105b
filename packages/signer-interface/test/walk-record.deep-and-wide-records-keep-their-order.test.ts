import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSignableMessage, flattenRecord, hmacSha256SigningText, omitEncryptionData, SignableMessageError } from '../src/index.ts';
import { MAX_RECORD_DEPTH } from '@gw/types';
import { expectedSigningText } from './support/signing-text-oracle.ts';

// One level of a deep record: an object member among sibling leaves, or an array element among sibling leaves.
const step = fc.record({
  inArray: fc.boolean(),
  key: fc.constantFrom('a', 'b', 'ab', 'order', 'x_1', 'é', '[', 'k.k'),
  siblings: fc.array(fc.constantFrom('a', 'b', 'c', 'ab', 'z', '0'), { maxLength: 14 }),
  at: fc.nat(),
});
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** Builds `{ root: … }` from the innermost step out: the deepest leaf's path has `steps.length + 1` segments. */
function build(steps: readonly Step[]): Record<string, unknown> {
  let value: unknown = 'deep';
  for (let i = steps.length - 1; i >= 0; i--) {
    const { inArray, key, siblings, at } = steps[i]!;
    const position = at % (siblings.length + 1);
    if (inArray) {
      const items: unknown[] = siblings.map((s) => s);
      items.splice(position, 0, value);
      value = items;
    } else {
      const entries: [string, unknown][] = siblings.filter((s) => s !== key).map((s) => [s, `v${s}`]);
      entries.splice(Math.min(position, entries.length), 0, [key, value]);
      value = Object.fromEntries(entries);
    }
  }
  return { root: value, tail: 'end' };
}

/** The (path, value) pairs in the record's own order, with an explicit stack: an oracle independent of the walk. */
function pairsByStack(record: object): [string, string][] {
  const out: [string, string][] = [];
  const todo: [string, unknown][] = Object.entries(record).reverse();
  while (todo.length > 0) {
    const [path, value] = todo.pop()!;
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) todo.push([`${path}[${i}]`, value[i]]);
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value).reverse()) todo.push([`${path}.${k}`, v]);
    } else out.push([path, String(value)]);
  }
  return out;
}

describe('deep and wide records', () => {
  it('flatten in their own order and sign in path order at every depth up to the limit, and are refused past it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_RECORD_DEPTH + 20 }).chain((depth) => fc.array(step, { minLength: depth, maxLength: depth })),
        (steps) => {
          const record = build(steps);
          if (steps.length + 1 > MAX_RECORD_DEPTH) {
            expect(() => createSignableMessage({ operation: 'capture', record, body: '' })).toThrow(SignableMessageError);
            expect(() => flattenRecord(record)).toThrow(/nested more than/);
            return;
          }
          const pairs = flattenRecord(record).map((f) => [f.path, f.value]);
          expect(pairs).toEqual(pairsByStack(record));
          const message = createSignableMessage({ operation: 'capture', record, body: '' });
          expect(message.fields.map((f) => [f.path, f.value])).toEqual(pairs);
          expect(hmacSha256SigningText(message)).toBe(expectedSigningText(message));
          expect(omitEncryptionData(record)).toEqual(record);
        },
      ),
      { numRuns: 400 },
    );
  });
});
