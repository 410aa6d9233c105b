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

  it('gives the same result for text fed as pieces as for the joined text (pieces longer than its scratch buffer too)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 80 }), fc.array(fc.string({ unit: 'grapheme', maxLength: 3000 }), { maxLength: 5 }), (secret, pieces) => {
        const hmac = createHmacSha256(secret);
        const joined = pieces.join('');
        expect(hmac.pieces(pieces)).toBe(createHmac('sha256', secret).update(joined, 'utf8').digest('hex'));
        expect(hmac(joined)).toBe(hmac.pieces(pieces));
      }),
      { numRuns: 200 },
    );
  });

  it('grows past its scratch buffer for a long text and stays right for short ones after it', () => {
    const secret = Buffer.from('sandbox-secret');
    const hmac = createHmacSha256(secret);
    const long = 'capture_orders[49].transaction_id=T2026112200000049&'.repeat(400) + 'é€😀';
    for (const text of ['a=1', long, 'b=2', '']) expect(hmac(text)).toBe(createHmac('sha256', secret).update(text, 'utf8').digest('hex'));
  });

  it('keeps no link to the caller\'s secret bytes: zeroing them afterwards changes nothing', () => {
    const secret = Buffer.from('sandbox-secret');
    const hmac = createHmacSha256(secret);
    const before = hmac('a=1');
    secret.fill(0);
    expect(hmac('a=1')).toBe(before);
  });
});
