import { createHash } from 'node:crypto';
import type { CaptureRequest } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { createSha256ConcatSigner, createSignableMessage, omitEncryptionData, SignerConfigError } from '../src/index.ts';

function messageOf(record: object) {
  return createSignableMessage({ operation: 'capture', record, body: JSON.stringify(omitEncryptionData(record)) });
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const capture = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  capture_orders: [{ transaction_id: 'T1', order_no: 'ORD-1', currency: 'USD', amount: '129.90' }],
} satisfies CaptureRequest;

describe('createSha256ConcatSigner', () => {
  it('by default hashes every value in message order, then the secret, as lowercase hex SHA-256', () => {
    const signature = createSha256ConcatSigner({ secret: 'key' }).sign(messageOf(capture));
    expect(signature).toBe(sha256Hex('M100200A300400T1ORD-1USD129.90key'));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('with fields, hashes the values of those paths in the listed order, a missing path counting as ""', () => {
    const signer = createSha256ConcatSigner({ secret: 'key', fields: ['account_id', 'merchant_id', 'note', 'capture_orders[0].amount'] });
    expect(signer.sign(messageOf(capture))).toBe(sha256Hex('A300400M100200129.90key'));
  });

  it('with fields, ignores every other field: a documented property of chosen-field algorithms', () => {
    const signer = createSha256ConcatSigner({ secret: 'key', fields: ['merchant_id', 'capture_orders[0].amount'] });
    const signature = signer.sign(messageOf(capture));
    const otherOrder = { ...capture, capture_orders: [{ ...capture.capture_orders[0], transaction_id: 'T999' }] };
    expect(signer.verify(messageOf(otherOrder), signature)).toBe(true);
    const otherAmount = { ...capture, capture_orders: [{ ...capture.capture_orders[0], amount: '999.90' }] };
    expect(signer.verify(messageOf(otherAmount), signature)).toBe(false);
  });

  it('appends the secret as bytes, so a text secret and its UTF-8 bytes sign alike', () => {
    expect(createSha256ConcatSigner({ secret: Buffer.from('clé', 'utf8') }).sign(messageOf(capture))).toBe(
      createSha256ConcatSigner({ secret: 'clé' }).sign(messageOf(capture)),
    );
  });

  it.each([
    ['an empty list', []],
    ['an empty path', ['merchant_id', '']],
    ['a repeated path', ['merchant_id', 'merchant_id']],
    ['a list that is not an array', 'merchant_id'],
    ['a path that is not a string', [1]],
  ])('refuses fields given as %s with a GW_CONFIG error', (_, fields) => {
    expect(() => createSha256ConcatSigner({ secret: 'key', fields: fields as string[] })).toThrow(SignerConfigError);
    expect(() => createSha256ConcatSigner({ secret: 'key', fields: fields as string[] })).toThrow(
      expect.objectContaining({ code: 'GW_CONFIG', name: 'SignerConfigError' }),
    );
  });
});
