import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHmacSha256 } from '../src/hmac-sha256.ts';

describe('the HMAC-SHA256 behind the reference signer', () => {
  it("gives node:crypto createHmac's result for any secret (longer than a block too) and any text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 150 }), fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 4 }), (secret, texts) => {
        const hmac = createHmacSha256(secret);
        // Several texts through one instance: its scratch buffer is reused between calls.
        for (const text of texts) expect(hmac(text)).toBe(createHmac('sha256', secret).update(text, 'utf8').digest('hex'));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same result for path=value pairs written in order as for their joined text (longer than its scratch buffer too)', () => {
    const escape = (value: string): string => value.replaceAll('%', '%25').replaceAll('&', '%26');
    const leaf = fc.record({ path: fc.string({ unit: 'grapheme', maxLength: 20 }), value: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.constantFrom('%&%', 'a&b=c')) });
    fc.assert(
      // Up to 20 leaves: a message of a few is written piece by piece, a longer one joined first.
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 80 }), fc.array(leaf, { maxLength: 20 }), (secret, leaves) => {
        const hmac = createHmacSha256(secret);
        const paths = leaves.map((l) => l.path);
        const values = leaves.map((l) => l.value);
        // Any order of the leaves: the pairs are written in `order`, not in the arrays' own order.
        const order = leaves.map((_, i) => i).reverse();
        const joined = order.map((i) => `${paths[i]}=${escape(values[i]!)}`).join('&');
        expect(hmac.pairs(paths, values, order, escape)).toBe(createHmac('sha256', secret).update(joined, 'utf8').digest('hex'));
        expect(hmac(joined)).toBe(hmac.pairs(paths, values, order, escape));
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its scratch buffer for a long text and stays right for short ones after it', () => {
    const secret = Buffer.from('sandbox-secret');
    const hmac = createHmacSha256(secret);
    const long = 'capture_orders[49].transaction_id=T2026112200000049&'.repeat(400) + 'é€😀';
    for (const text of ['a=1', long, 'b=2', '']) expect(hmac(text)).toBe(createHmac('sha256', secret).update(text, 'utf8').digest('hex'));
  });

  it('stays right for a message past the size it grows to without counting bytes (over 1 MiB at 3 bytes a character)', () => {
    const secret = Buffer.from('sandbox-secret');
    const hmac = createHmacSha256(secret);
    const escape = (value: string): string => value.replaceAll('%', '%25').replaceAll('&', '%26').replaceAll('=', '%3D');
    // 400,000 characters: 1.2 MB at the 3-byte bound, so the exact count decides; escapes make it longer than it is.
    const body = 'a&b=%é'.repeat(66_667);
    const paths = ['body', 't'];
    const values = [body, '1700000000'];
    const joined = `body=${escape(body)}&t=1700000000`;
    for (const _ of [1, 2]) {
      expect(hmac.pairs(paths, values, [0, 1], escape)).toBe(createHmac('sha256', secret).update(joined, 'utf8').digest('hex'));
      expect(hmac('a=1')).toBe(createHmac('sha256', secret).update('a=1', 'utf8').digest('hex'));
    }
  });

  it('keeps no link to the caller\'s secret bytes: zeroing them afterwards changes nothing', () => {
    const secret = Buffer.from('sandbox-secret');
    const hmac = createHmacSha256(secret);
    const before = hmac('a=1');
    secret.fill(0);
    expect(hmac('a=1')).toBe(before);
  });
});
