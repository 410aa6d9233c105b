import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSignableMessage, hmacSha256SigningText } from '../src/index.ts';

// An independent statement of the order: compare paths, then pairs, by Unicode code points.
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
const escape = (t: string) => t.replaceAll('%', '%25').replaceAll('&', '%26').replaceAll('=', '%3D');

describe('the reference HMAC signing text', () => {
  it('is the pairs sorted by path then pair in code-point order, for any keys and values (fast path or not)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '.', '_', '\u0000', 'é', '\uffff', '\ud83d\ude00', '=', '&', '%', 'z'), maxLength: 6 });
    fc.assert(
      fc.property(fc.dictionary(text.filter((k) => k !== 'encryption_data' && k !== '__proto__'), text, { maxKeys: 8 }), fc.dictionary(text.filter((k) => k !== '__proto__'), text, { maxKeys: 3 }), (flat, nested) => {
        const record = { ...flat, n: [nested] };
        const message = createSignableMessage({ operation: 'capture', record, body: '' });
        const expected = message.fields
          .map((f) => ({ path: f.path, pair: `${escape(f.path)}=${escape(f.value)}` }))
          .sort((a, b) => byCodePoints(a.path, b.path) || byCodePoints(a.pair, b.pair))
          .map((e) => e.pair)
          .join('&');
        expect(hmacSha256SigningText(message)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
