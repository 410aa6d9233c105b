import { inspect } from 'node:util';
import type { CardAuthoriseRequest } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { createSignableMessage, omitEncryptionData, SignableMessageError } from '../src/index.ts';

const card = {
  merchant_id: 'M100200',
  encryption_data: 'old-signature',
  order_no: 'ORD-1',
  card: '4111111111111111',
  expiration_month: '12',
  expiration_year: '2029',
  security_code: '737',
  subscription: { contract_name: 'Premium', encryption_data: 'nested' },
} satisfies CardAuthoriseRequest & { subscription: { encryption_data: string } };

describe('createSignableMessage', () => {
  it('names the operation with its path from the operation table', () => {
    const capture = createSignableMessage({ operation: 'capture', record: {}, body: '{}' });
    expect(capture.operation).toEqual({ name: 'capture', path: '/v1/capture' });
    const alternative = createSignableMessage({ operation: 'authoriseAlternative', record: {}, body: '' });
    expect(alternative.operation).toEqual({ name: 'authoriseAlternative', path: '/v1/authorise' });
    expect(createSignableMessage({ operation: 'query', record: {}, body: '' }).operation.path).toBe('/v1/retrievalTrans');
  });

  it('carries the field pairs without encryption_data and the body bytes as given', () => {
    const body = JSON.stringify(omitEncryptionData(card));
    const message = createSignableMessage({ operation: 'authoriseCard', record: card, body });
    expect(message.fields.map((f) => f.path)).toEqual([
      'merchant_id',
      'order_no',
      'card',
      'expiration_month',
      'expiration_year',
      'security_code',
      'subscription.contract_name',
    ]);
    expect(new TextDecoder().decode(message.body)).toBe(body);
    expect(body).not.toContain('encryption_data');
  });

  it("encodes a string body as UTF-8 and copies a byte body, so later changes to the caller's buffer do not leak in", () => {
    expect([...createSignableMessage({ operation: 'capture', record: {}, body: 'é𝄞' }).body]).toEqual([0xc3, 0xa9, 0xf0, 0x9d, 0x84, 0x9e]);
    const bytes = new TextEncoder().encode('{"merchant_id":"M1"}');
    const message = createSignableMessage({ operation: 'capture', record: { merchant_id: 'M1' }, body: bytes });
    bytes.fill(0);
    expect(new TextDecoder().decode(message.body)).toBe('{"merchant_id":"M1"}');
  });

  it('is frozen: a signer cannot change what the next signer sees', () => {
    const message = createSignableMessage({ operation: 'capture', record: { merchant_id: 'M1' }, body: '' });
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(message.fields)).toBe(true);
    expect(Object.isFrozen(message.fields[0])).toBe(true);
    expect(Object.isFrozen(message.operation)).toBe(true);
  });

  it('hides card number, expiry and security code from util.inspect / console.log, but gives them to the signer', () => {
    const message = createSignableMessage({ operation: 'authoriseCard', record: card, body: JSON.stringify(omitEncryptionData(card)) });
    for (const shown of [inspect(message, { depth: 10 }), inspect(message.fields, { depth: 10 })]) {
      expect(shown).not.toContain('4111111111111111');
      expect(shown).not.toContain('737');
      expect(shown).not.toContain('2029');
      expect(shown).toContain('ORD-1');
      expect(shown).toContain('[redacted]');
    }
    expect(inspect(message)).toContain('bytes>');
    expect(message.fields.find((f) => f.path === 'card')?.value).toBe('4111111111111111');
  });

  it('refuses an unknown operation or a body that is neither bytes nor text', () => {
    expect(() => createSignableMessage({ operation: 'optimise' as 'capture', record: {}, body: '' })).toThrow(SignableMessageError);
    expect(() => createSignableMessage({ operation: 'toString' as 'capture', record: {}, body: '' })).toThrow(/not an operation/);
    expect(() => createSignableMessage({ operation: 'capture', record: {}, body: { merchant_id: 'M1' } as unknown as string })).toThrow(
      expect.objectContaining({ code: 'GW_SIGNATURE', details: { operation: 'capture', valueType: 'object' } }),
    );
  });
});

describe('omitEncryptionData', () => {
  it('copies the record without encryption_data at any level and leaves the original alone', () => {
    const copy = omitEncryptionData(card);
    expect(copy).toEqual({ ...card, encryption_data: undefined, subscription: { contract_name: 'Premium' } });
    expect('encryption_data' in copy).toBe(false);
    expect(card.encryption_data).toBe('old-signature');
    expect(omitEncryptionData({ capture_orders: [{ encryption_data: 'x', amount: '1.00' }] })).toEqual({ capture_orders: [{ amount: '1.00' }] });
  });
});
