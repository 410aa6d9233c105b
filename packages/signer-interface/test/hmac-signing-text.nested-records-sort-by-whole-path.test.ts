import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSignableMessage, hmacSha256SigningText } from '../src/index.ts';
import { expectedSigningText } from './support/signing-text-oracle.ts';

// Keys that sort next to each other's subtrees: prefixes of one another, with path punctuation and odd code points.
const key = fc
  .string({ unit: fc.constantFrom('a', 'ab', 'b', '_', '-', '/', '0', '1', '.', '[', ']', 'é', '\uffff', '\ud83d\ude00', '%', '='), maxLength: 3 })
  .filter((k) => k !== 'encryption_data' && k !== '__proto__');
const safeKey = fc.string({ unit: fc.constantFrom('a', 'ab', 'b', '_', '-', '/', '0', '1', 'é', '\uffff'), minLength: 1, maxLength: 3 });
const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null));
const tree = (keys: fc.Arbitrary<string>) =>
  fc.letrec<{ node: unknown; record: Record<string, unknown> }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 12 }), tie('record')),
    record: fc.dictionary(keys, tie('node'), { maxKeys: 5 }),
  })).record;

describe('the reference HMAC signing text of nested records', () => {
  it('equals sorting whole paths, for records of plain keys (arrays past 10 elements included)', () => {
    fc.assert(
      fc.property(tree(safeKey), (record) => {
        const message = createSignableMessage({ operation: 'capture', record, body: '' });
        expect(hmacSha256SigningText(message)).toBe(expectedSigningText(message));
      }),
      { numRuns: 1500 },
    );
  });

  it('equals sorting whole paths for any keys (with . [ ] % & = or surrogates too)', () => {
    fc.assert(
      fc.property(tree(key), (record) => {
        const message = createSignableMessage({ operation: 'capture', record, body: '' });
        expect(hmacSha256SigningText(message)).toBe(expectedSigningText(message));
      }),
      { numRuns: 1500 },
    );
  });

  it('equals sorting whole paths for a 50-order capture', () => {
    const orders = Array.from({ length: 50 }, (_, i) => ({ transaction_id: `T${i}`, order_no: `O-${i}`, currency: 'USD', amount: '1.00' }));
    const message = createSignableMessage({ operation: 'capture', record: { merchant_id: 'M1', account_id: 'A1', capture_orders: orders }, body: '' });
    expect(message.fields).toHaveLength(202);
    const text = hmacSha256SigningText(message);
    expect(text).toBe(expectedSigningText(message));
    // "[10]" sorts before "[1]" and "[2]": code-point order of whole paths, not numeric order.
    expect(text.indexOf('capture_orders[10].amount')).toBeLessThan(text.indexOf('capture_orders[1].amount'));
  });
});
