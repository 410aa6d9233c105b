import { describe, expect, it } from 'vitest';
import { MAX_RECORD_DEPTH } from '@gw/types';
import {
  createHmacSha256Signer,
  createSha256ConcatSigner,
  createSignableMessage,
  flattenRecord,
  omitEncryptionData,
  SignableMessageError,
} from '../src/index.ts';

// An answer nested thousands of levels deep (`{"a":[[[[…`) is input the toolkit did not build: the walks must refuse it
// with the package's typed error, never overflow the stack with a RangeError.
function nested(depth: number, inArrays: boolean): Record<string, unknown> {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = inArrays ? [value] : { a: value };
  return { merchant_id: 'M1', capture_results: value };
}

function refusal(run: () => unknown): SignableMessageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SignableMessageError);
    return error as SignableMessageError;
  }
  throw new Error('expected a SignableMessageError, nothing was thrown');
}

describe('records nested deeper than the walks allow', () => {
  for (const depth of [5_000, 100_000]) {
    for (const inArrays of [true, false]) {
      it(`are refused with SignableMessageError 'too-deep' (${depth} levels of ${inArrays ? 'arrays' : 'objects'}), by every walk`, () => {
        const record = nested(depth, inArrays);
        const message = refusal(() => createSignableMessage({ operation: 'capture', record, body: '' }));
        expect(message.code).toBe('GW_SIGNATURE');
        expect(message.details).toMatchObject({ operation: 'capture', reason: 'too-deep' });
        expect(message.details.path?.startsWith(inArrays ? 'capture_results[0][0]' : 'capture_results.a.a')).toBe(true);
        expect(message.message).toMatch(/nested more than \d+ levels/);
        expect(refusal(() => flattenRecord(record)).details.reason).toBe('too-deep');
        expect(refusal(() => omitEncryptionData(record)).details.reason).toBe('too-deep');
      });
    }
  }

  it('a verifier given such an answer throws the typed error, so a client can treat it as unverifiable', () => {
    for (const signer of [createHmacSha256Signer({ secret: 's' }), createSha256ConcatSigner({ secret: 's' })]) {
      const error = refusal(() => signer.verify(createSignableMessage({ operation: 'capture', record: nested(5_000, true), body: '{}' }), 'ab'));
      expect(error.details.reason).toBe('too-deep');
    }
  });

  it('records as deep as the limit still sign, and a known shape seen before does not let a deeper one through', () => {
    const shallow = nested(MAX_RECORD_DEPTH - 1, false); // containers at every level up to the limit
    const signer = createHmacSha256Signer({ secret: 's' });
    expect(signer.sign(createSignableMessage({ operation: 'capture', record: shallow, body: '' }))).toMatch(/^[0-9a-f]{64}$/);
    expect(flattenRecord(shallow)).toHaveLength(2);
    expect(omitEncryptionData(shallow)).toEqual(shallow);
    expect(refusal(() => flattenRecord(nested(MAX_RECORD_DEPTH, false))).details).toMatchObject({ reason: 'too-deep', maxDepth: MAX_RECORD_DEPTH });
    expect(refusal(() => createSignableMessage({ operation: 'capture', record: nested(5_000, false), body: '' })).details.reason).toBe('too-deep');
  });
});
