import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSignableMessage, hmacSha256SigningText } from '../src/index.ts';

const record = fc.dictionary(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((k) => k !== 'encryption_data' && k !== '__proto__'),
  fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.constantFrom('%&%', 'a&b=c')),
  { maxKeys: 20 },
);

describe('the HMAC-SHA256 behind the reference signer', () => {
  it("gives node:crypto createHmac's result over the signing text for any secret (longer than a block too) and any record", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 150 }), fc.array(record, { maxLength: 4 }), (secret, records) => {
        const signer = createHmacSha256Signer({ secret });
        // Several messages through one signer: nothing of one call may change the next.
        for (const r of records) {
          const message = createSignableMessage({ operation: 'capture', record: r, body: '' });
          expect(signer.sign(message)).toBe(createHmac('sha256', secret).update(hmacSha256SigningText(message), 'utf8').digest('hex'));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays right for a long message (over 1 MiB of UTF-8) and for short ones after it', () => {
    const signer = createHmacSha256Signer({ secret: 'sandbox-secret' });
    const body = 'a&b=%é'.repeat(66_667);
    for (const r of [{ a: '1' }, { body, t: '1700000000' }, { b: '2' }, {}]) {
      const message = createSignableMessage({ operation: 'capture', record: r, body: '' });
      expect(signer.sign(message)).toBe(createHmac('sha256', 'sandbox-secret').update(hmacSha256SigningText(message), 'utf8').digest('hex'));
    }
  });

  it("keeps no link to the caller's secret bytes: zeroing them afterwards changes nothing", () => {
    const secret = Buffer.from('sandbox-secret');
    const signer = createHmacSha256Signer({ secret });
    const message = createSignableMessage({ operation: 'capture', record: { a: '1' }, body: '' });
    const before = signer.sign(message);
    secret.fill(0);
    expect(signer.sign(message)).toBe(before);
  });
});
