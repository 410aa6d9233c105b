import { createHmac } from 'node:crypto';
import type { CaptureRequest } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSignableMessage, hmacSha256SigningText, omitEncryptionData } from '../src/index.ts';

function messageOf(record: object) {
  return createSignableMessage({ operation: 'capture', record, body: JSON.stringify(omitEncryptionData(record)) });
}

const capture = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  encryption_data: 'ignored',
  capture_orders: [
    { transaction_id: 'T20261120101530001', order_no: 'ORD-1', currency: 'USD', amount: '129.90' },
    { transaction_id: 'T20261119174512147', order_no: 'ORD-2', currency: 'USD', amount: '45.00' },
  ],
} satisfies CaptureRequest;

describe('createHmacSha256Signer', () => {
  it('signs the path=value pairs sorted by path and joined by &, as lowercase hex HMAC-SHA256', () => {
    const text =
      'account_id=A300400&capture_orders[0].amount=129.90&capture_orders[0].currency=USD&capture_orders[0].order_no=ORD-1' +
      '&capture_orders[0].transaction_id=T20261120101530001&capture_orders[1].amount=45.00&capture_orders[1].currency=USD' +
      '&capture_orders[1].order_no=ORD-2&capture_orders[1].transaction_id=T20261119174512147&merchant_id=M100200';
    const message = messageOf(capture);
    expect(hmacSha256SigningText(message)).toBe(text);
    const signature = createHmacSha256Signer({ secret: 'sandbox-secret' }).sign(message);
    expect(signature).toBe(createHmac('sha256', 'sandbox-secret').update(text, 'utf8').digest('hex'));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs synchronously: sign returns a string and verify a boolean, not promises', () => {
    const signer = createHmacSha256Signer({ secret: 'k' });
    const signature = signer.sign(messageOf(capture));
    expect(typeof signature).toBe('string');
    expect(signer.verify(messageOf(capture), signature)).toBe(true);
  });

  it('escapes %, & and = so that one value cannot pass for two pairs', () => {
    const signer = createHmacSha256Signer({ secret: 'k' });
    const smuggled = messageOf({ a: '1&b=2' });
    const honest = messageOf({ a: '1', b: '2' });
    expect(hmacSha256SigningText(smuggled)).toBe('a=1%26b%3D2');
    expect(hmacSha256SigningText(honest)).toBe('a=1&b=2');
    expect(signer.verify(smuggled, signer.sign(honest))).toBe(false);
    expect(hmacSha256SigningText(messageOf({ 'a=b': '%' }))).toBe('a%3Db=%25');
  });

  it('sorts by code point (as UTF-8 bytes and other languages do), not by UTF-16 code unit', () => {
    // U+FF21 sorts before U+1D400 by code point, after it by UTF-16 unit (0xD835 < 0xFF21).
    expect(hmacSha256SigningText(messageOf({ '\u{1D400}': '2', '\uFF21': '1', z: '0' }))).toBe('z=0&\uFF21=1&\u{1D400}=2');
  });

  it('takes the secret as text or as the same bytes', () => {
    const message = messageOf(capture);
    expect(createHmacSha256Signer({ secret: new TextEncoder().encode('sändbox') }).sign(message)).toBe(
      createHmacSha256Signer({ secret: 'sändbox' }).sign(message),
    );
  });

  it('does not depend on encryption_data or on the body', () => {
    const signer = createHmacSha256Signer({ secret: 'k' });
    const withoutSignature = omitEncryptionData(capture);
    const otherBody = createSignableMessage({ operation: 'capture', record: capture, body: '<xml/>' });
    expect(signer.sign(messageOf(capture))).toBe(signer.sign(messageOf(withoutSignature)));
    expect(signer.sign(otherBody)).toBe(signer.sign(messageOf(capture)));
  });
});

describe('createHmacSha256Signer over long values (a notification body as one field)', () => {
  const long = (fill: string) => `{"note":"${fill.repeat(Math.ceil(600 / fill.length))}"}`;
  it.each([
    ['ASCII', long('gift wrap, leave at the door ')],
    ['characters it escapes', long('a=1&b=2%3 ')],
    ['non-ASCII and astral characters', long('Grüße 配送 😀 ')],
    ['a lone surrogate', `${long('x')}\uD83D`],
  ])('signs %s exactly as HMAC-SHA256 of the documented signing text', (_name, payload) => {
    const message = createSignableMessage({ operation: 'authoriseCard', record: { t: '1790000000', payload }, body: '' });
    const text = hmacSha256SigningText(message);
    expect(text.startsWith('payload=')).toBe(true);
    expect(text.endsWith('&t=1790000000')).toBe(true);
    const signer = createHmacSha256Signer({ secret: 'sandbox-secret' });
    const signature = signer.sign(message);
    expect(signature).toBe(createHmac('sha256', 'sandbox-secret').update(text, 'utf8').digest('hex'));
    expect(signer.verify(message, signature)).toBe(true);
    const changed = createSignableMessage({ operation: 'authoriseCard', record: { t: '1790000000', payload: `${payload} ` }, body: '' });
    expect(signer.verify(changed, signature)).toBe(false);
  });
});
