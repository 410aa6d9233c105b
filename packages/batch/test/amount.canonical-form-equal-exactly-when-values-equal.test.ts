import { RecordValidator } from '@gw/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAmount } from '../src/intake/canonical-amount.ts';

const digits = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** A decimal as an exact scaled integer: digits and the number of them after the dot (no float anywhere). */
function scaled(text: string): { digits: bigint; scale: number } {
  const [whole, fraction = ''] = text.split('.');
  return { digits: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

/** True when the two decimal texts are the same value, by BigInt arithmetic at their common scale. */
function sameValue(a: string, b: string): boolean {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  return x.digits * 10n ** BigInt(scale - x.scale) === y.digits * 10n ** BigInt(scale - y.scale);
}

/** One value spelled with any number of leading zeros and trailing fraction zeros (`3` -> `003.000`). */
const spelling = (whole: string, fraction: string) =>
  fc.tuple(fc.nat(3), fc.nat(3)).map(([lead, trail]) => {
    const tail = fraction + '0'.repeat(trail);
    return `${'0'.repeat(lead)}${whole}${tail ? `.${tail}` : ''}`;
  });

// Small values with few digits, so equal values come up often; any digits, so long ones do too.
const value = fc.tuple(fc.oneof(digits(1, 2), digits(1, 25)), fc.oneof(fc.constant(''), digits(1, 3), digits(1, 25)));
const decimal = value.chain(([whole, fraction]) => spelling(whole, fraction));
const sameValueTwice = value.chain(([whole, fraction]) => fc.tuple(spelling(whole, fraction), spelling(whole, fraction)));

/** The spec's own check of a refund_amount (DecimalAmount), as intake runs it. */
const validator = new RecordValidator();
const specAccepts = (text: unknown) => validator.requestProblems('refund', { refund_orders: [{ refund_amount: text }] }).length === 0;

describe("an amount's canonical form is equal exactly when the decimal values are equal", () => {
  it('3, 3.0, 3.00 and 03.000 are 3; 0.50 is 0.5; 0 and 000.000 are 0; 3.001 stays itself', () => {
    for (const text of ['3', '3.0', '3.00', '03.000']) expect(canonicalAmount(text)).toBe('3');
    expect(canonicalAmount('0.50')).toBe('0.5');
    expect(canonicalAmount('0')).toBe('0');
    expect(canonicalAmount('000.000')).toBe('0');
    expect(canonicalAmount('3.001')).toBe('3.001');
    expect(canonicalAmount('10.10')).toBe('10.1');
  });

  it('two spellings of one value have one canonical form', () => {
    fc.assert(
      fc.property(sameValueTwice, ([a, b]) => {
        expect(canonicalAmount(a)).toBe(canonicalAmount(b));
      }),
      { numRuns: 2000 },
    );
  });

  it('any two decimals: canonical forms equal if and only if their values are equal (BigInt at a common scale)', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(canonicalAmount(a) === canonicalAmount(b)).toBe(sameValue(a, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('the canonical form is the same value, has no leading or trailing zeros, and is its own canonical form', () => {
    fc.assert(
      fc.property(decimal, (text) => {
        const canonical = canonicalAmount(text)!;
        expect(canonical).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
        expect(sameValue(canonical, text)).toBe(true);
        expect(canonicalAmount(canonical)).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on any string or value; a decimal exactly when the spec's DecimalAmount pattern accepts it", () => {
    const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...'0123456789.,-+e ٣\n\u0000') }), decimal);
    fc.assert(
      fc.property(anyText, (text) => {
        expect(canonicalAmount(text) !== null).toBe(specAccepts(text));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.anything(), (thing) => {
        expect(() => canonicalAmount(thing)).not.toThrow();
      }),
      { numRuns: 500 },
    );
    for (const thing of [3, 3.5, 3n, null, undefined, {}, ['3'], new String('3')]) expect(canonicalAmount(thing)).toBeNull();
  });

  it('a long amount (a million digits) is read in linear time, never as a float', () => {
    const long = `${'0'.repeat(500_000)}7.${'0'.repeat(499_999)}1${'0'.repeat(500_000)}`;
    expect(canonicalAmount(long)).toBe(`7.${'0'.repeat(499_999)}1`);
    expect(canonicalAmount(`${'9'.repeat(400)}.00`)).toBe('9'.repeat(400));
  });
});
