import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSignableMessage, signaturesMatch } from '../src/index.ts';

describe('signaturesMatch', () => {
  it('is true only for the same text', () => {
    expect(signaturesMatch({ expected: 'ab12', received: 'ab12' })).toBe(true);
    expect(signaturesMatch({ expected: 'ab12', received: 'ab13' })).toBe(false);
    expect(signaturesMatch({ expected: 'ab12', received: 'AB12' })).toBe(false);
  });

  it('returns false, without throwing, for different lengths, including equal UTF-16 length but different UTF-8 length', () => {
    expect(signaturesMatch({ expected: 'ab12', received: 'ab1' })).toBe(false);
    expect(signaturesMatch({ expected: 'ab12', received: '' })).toBe(false);
    expect(signaturesMatch({ expected: 'e', received: 'é' })).toBe(false);
    expect(signaturesMatch({ expected: 'ab12', received: 'ab12'.repeat(10_000) })).toBe(false);
  });

  it('is true exactly when the two texts are equal, ASCII or not (a character is never taken for its low byte)', () => {
    expect(signaturesMatch({ expected: 'a\u0161', received: 'aa' })).toBe(false); // š is U+0161: its low byte is "a"
    expect(signaturesMatch({ expected: 'aa', received: 'a\u0161' })).toBe(false);
    expect(signaturesMatch({ expected: 'é😀', received: 'é😀' })).toBe(true);
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'a\u0161', '\u0100', '\u0161'), maxLength: 8 }),
    );
    fc.assert(
      fc.property(text, text, (expected, received) => {
        expect(signaturesMatch({ expected, received })).toBe(expected === received);
        expect(signaturesMatch({ expected, received: expected })).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns false for a received value that is not a string', () => {
    for (const received of [undefined, null, 12, ['ab12'], { toString: () => 'ab12' }]) {
      expect(signaturesMatch({ expected: 'ab12', received })).toBe(false);
    }
  });
});

describe('reference verify', () => {
  const signer = createHmacSha256Signer({ secret: 'k' });
  const message = createSignableMessage({ operation: 'capture', record: { merchant_id: 'M1' }, body: '' });
  const signature = signer.sign(message);

  it('returns false for a missing encryption_data or a value of another type, instead of throwing', () => {
    for (const received of [undefined, null, 0, {}, Buffer.from(signature)]) {
      expect(signer.verify(message, received as unknown as string)).toBe(false);
    }
  });

  it('compares lowercase hex exactly: an upper-case copy of the signature is refused', () => {
    expect(signer.verify(message, signature)).toBe(true);
    expect(signer.verify(message, signature.toUpperCase())).toBe(false);
  });
});
