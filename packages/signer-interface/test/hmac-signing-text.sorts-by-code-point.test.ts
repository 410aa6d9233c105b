import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSignableMessage, hmacSha256SigningText } from '../src/index.ts';
import { expectedSigningText } from './support/signing-text-oracle.ts';

describe('the reference HMAC signing text', () => {
  it('is the pairs sorted by path then pair in code-point order, for any keys and values (fast path or not)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '.', '_', '\u0000', 'é', '\uffff', '\ud83d\ude00', '=', '&', '%', 'z'), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.dictionary(
          text.filter((k) => k !== 'encryption_data' && k !== '__proto__'),
          text,
          { maxKeys: 8 },
        ),
        fc.dictionary(
          text.filter((k) => k !== '__proto__'),
          text,
          { maxKeys: 3 },
        ),
        (flat, nested) => {
          const record = { ...flat, n: [nested] };
          const message = createSignableMessage({ operation: 'capture', record, body: '' });
          expect(hmacSha256SigningText(message)).toBe(expectedSigningText(message));
        },
      ),
      { numRuns: 500 },
    );
  });
});
