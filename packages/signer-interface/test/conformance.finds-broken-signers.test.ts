import { timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, SignerConfigError, type Signer, type Verifier } from '../src/index.ts';
import { checkSignerConformance, SIGNER_CONFORMANCE_CHECK_IDS, type SignerConformanceFailure } from '../src/conformance/index.ts';
import { createPairsHmacSigner } from './support/team-signers.ts';

function failedChecks(failures: readonly SignerConformanceFailure[]): string[] {
  return [...new Set(failures.map((f) => f.check))].sort();
}

function failedPaths(failures: readonly SignerConformanceFailure[], check: string): string[] {
  return failures.filter((f) => f.check === check && f.path !== undefined).map((f) => f.path!);
}

const good = createHmacSha256Signer({ secret: 'k1' });
const otherSecret = createHmacSha256Signer({ secret: 'k2' });

describe('checkSignerConformance', () => {
  it('finds nothing wrong with a conforming signer, running every check', async () => {
    expect(await checkSignerConformance({ signer: good, verifier: good, signerWithOtherSecret: otherSecret })).toEqual([]);
    expect(SIGNER_CONFORMANCE_CHECK_IDS).toHaveLength(13);
  });

  it('catches a signer that ignores nested fields, naming every nested path it missed', async () => {
    const topLevelOnly = createPairsHmacSigner({ secret: 'k1', keep: (path) => !/[.[]/.test(path) });
    const failures = await checkSignerConformance({ signer: topLevelOnly, verifier: topLevelOnly });
    expect(failedChecks(failures)).toEqual(['add-remove-fields', 'empty-values', 'large-batches', 'nested-structures', 'tamper-every-field', 'unicode']);
    const tampered = failedPaths(failures, 'tamper-every-field');
    expect(tampered).toEqual(
      expect.arrayContaining([
        'capture_orders[0].amount',
        'capture_orders[2].currency',
        'cart_items[1].basic_item_data.price.amount_usd',
        'subscription.billing_cycle',
        'person.documents.labels.bank_account.bank.code',
        'beneficiary.person_documents[1].labels[0]',
        'payer.address.city',
      ]),
    );
    expect(tampered.every((path) => /[.[]/.test(path))).toBe(true);
    expect(failedPaths(failures, 'large-batches')).toEqual(expect.arrayContaining(['review_orders[99].review_flag', 'refund_orders[49].refund_amount']));
  });

  it('catches a verifier that always says true', async () => {
    const alwaysTrue: Signer & Verifier = { sign: (m) => good.sign(m), verify: () => true };
    const failures = await checkSignerConformance({ signer: alwaysTrue, verifier: alwaysTrue, signerWithOtherSecret: otherSecret });
    expect(failedChecks(failures)).toEqual([
      'add-remove-fields',
      'empty-values',
      'large-batches',
      'malformed-signatures',
      'nested-structures',
      'other-secret',
      'tamper-every-field',
      'unicode',
    ]);
  });

  it('catches a signer whose signature changes from call to call', async () => {
    let calls = 0;
    const counter: Signer & Verifier = { sign: (m) => `${good.sign(m)}-${calls++}`, verify: (m, s) => s.startsWith(good.sign(m)) };
    const failures = await checkSignerConformance({ signer: counter, verifier: counter });
    expect(failedChecks(failures)).toEqual(expect.arrayContaining(['determinism', 'concurrency', 'encryption-data-excluded']));
  });

  it('catches a signer that normalises unicode before signing', async () => {
    const normalising = createPairsHmacSigner({ secret: 'k1', transform: (v) => v.normalize('NFC') });
    const failures = await checkSignerConformance({ signer: normalising, verifier: normalising });
    expect(failedChecks(failures)).toEqual(['unicode']);
    expect(failures.map((f) => f.message)).toContain('verify accepted the signature after normalising to NFC in billing_city');
  });

  it('catches a verifier that throws on a signature of the wrong length (timingSafeEqual without a length check)', async () => {
    const throwing: Verifier = { verify: (m, s) => timingSafeEqual(Buffer.from(good.sign(m)), Buffer.from(s)) };
    const failures = await checkSignerConformance({ signer: good, verifier: throwing });
    expect(failedChecks(failures)).toEqual(['malformed-signatures']);
    expect(failures[0]!.message).toMatch(/^verifier\.verify threw RangeError: .* instead of returning false$/);
  });

  it('catches a signer that does not use its secret', async () => {
    const unkeyed = createPairsHmacSigner({ secret: 'same-for-everyone' });
    const failures = await checkSignerConformance({
      signer: unkeyed,
      verifier: unkeyed,
      signerWithOtherSecret: createPairsHmacSigner({ secret: 'same-for-everyone' }),
    });
    expect(failures).toEqual([
      expect.objectContaining({ check: 'other-secret', message: 'another secret gave the same signature: the secret is not used' }),
      expect.objectContaining({ check: 'other-secret' }),
      expect.objectContaining({ check: 'other-secret' }),
      expect.objectContaining({ check: 'other-secret' }),
    ]);
  });

  it('catches a signer that signs only the first order of a batch', async () => {
    const firstOrderOnly = createPairsHmacSigner({ secret: 'k1', keep: (path) => !/_orders\[[1-9]/.test(path) });
    const failures = await checkSignerConformance({ signer: firstOrderOnly, verifier: firstOrderOnly });
    expect(failedChecks(failures)).toEqual(expect.arrayContaining(['large-batches', 'tamper-every-field']));
    expect(failedPaths(failures, 'large-batches')).not.toContain('review_orders[0].amount');
  });

  it('reports a sign that returns something other than a non-empty string, and a verify that returns a non-boolean', async () => {
    const numeric = { sign: () => 42 as unknown as string, verify: () => true };
    const failures = await checkSignerConformance({ signer: numeric, verifier: numeric, only: ['contract'] });
    expect(failures).toEqual([
      { check: 'contract', fixture: 'capture request (3 orders)', message: 'signer.sign returned number, not a non-empty string (or a promise of one)' },
    ]);
    const truthy = { verify: () => 'yes' as unknown as boolean };
    expect((await checkSignerConformance({ signer: good, verifier: truthy, only: ['contract'] }))[0]!.message).toBe(
      'verifier.verify returned string, not a boolean (or a promise of one)',
    );
  });

  it('reports a signedFields that covers nothing', async () => {
    const failures = await checkSignerConformance({ signer: good, verifier: good, signedFields: () => false, only: ['contract'] });
    expect(failures).toEqual([{ check: 'contract', message: 'signedFields covers no field of any fixture, so no tampering could be detected' }]);
  });

  it('names fields in failures but never prints their values (card data stays out)', async () => {
    const alwaysTrue = { sign: (m: Parameters<Signer['sign']>[0]) => good.sign(m), verify: () => true };
    const failures = await checkSignerConformance({ signer: alwaysTrue, verifier: alwaysTrue });
    const text = JSON.stringify(failures);
    expect(text).toContain('"path":"card"');
    for (const secret of ['4111111111111111', '"123"', 'AAABBJg0VhI0VniQEjRWAAAAAAA=']) expect(text).not.toContain(secret);
  });

  it('refuses options without a signer or verifier with a GW_CONFIG error', async () => {
    await expect(checkSignerConformance({ signer: good } as never)).rejects.toThrow(SignerConfigError);
    await expect(checkSignerConformance({ verifier: good } as never)).rejects.toThrow(/signer: must have a sign\(message\) method/);
    await expect(checkSignerConformance({ signer: good, verifier: good, signedFields: ['merchant_id'] } as never)).rejects.toThrow(
      expect.objectContaining({ code: 'GW_CONFIG' }),
    );
  });
});
