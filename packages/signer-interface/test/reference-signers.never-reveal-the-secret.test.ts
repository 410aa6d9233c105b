import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSha256ConcatSigner, createSignableMessage, type ReferenceSigner } from '../src/index.ts';

const SECRET = 'S3cr3t-never-shown-4f2a9c';

describe.each([
  ['createHmacSha256Signer', createHmacSha256Signer],
  ['createSha256ConcatSigner', createSha256ConcatSigner],
])('%s', (_, create) => {
  const signers: ReferenceSigner[] = [create({ secret: SECRET }), create({ secret: new TextEncoder().encode(SECRET) })];

  it('shows no secret through toString, template strings, JSON or util.inspect (even with hidden members)', () => {
    for (const signer of signers) {
      const views = [
        String(signer),
        `${signer}`,
        JSON.stringify(signer),
        JSON.stringify({ signer }),
        inspect(signer),
        inspect(signer, { showHidden: true, depth: Infinity, getters: true, customInspect: false }),
        inspect({ nested: [signer] }, { depth: Infinity }),
        Object.getOwnPropertyNames(signer).join(','),
        signer.sign.toString(),
        signer.verify.toString(),
      ];
      for (const view of views) expect(view).not.toContain(SECRET);
      expect(JSON.parse(JSON.stringify(signer))).toEqual({ algorithm: signer.algorithm });
      expect(String(signer)).toBe(`ReferenceSigner(${signer.algorithm})`);
    }
  });

  it("keeps a private copy: changing the caller's secret bytes afterwards changes nothing", () => {
    const bytes = new TextEncoder().encode(SECRET);
    const signer = create({ secret: bytes });
    const message = createSignableMessage({ operation: 'capture', record: { merchant_id: 'M1' }, body: '' });
    const before = signer.sign(message);
    bytes.fill(0);
    expect(signer.sign(message)).toBe(before);
  });

  it('cannot be altered: sign and verify are fixed', () => {
    const signer = signers[0]!;
    expect(Object.isFrozen(signer)).toBe(true);
    expect(() => Object.assign(signer, { verify: () => true })).toThrow(TypeError);
  });

  it('puts no secret in the errors it throws', () => {
    const signer = signers[0]!;
    const thrown: unknown[] = [];
    for (const call of [() => signer.sign({} as never), () => signer.verify(null as never, 'x'), () => signer.sign('not a message' as never)]) {
      try {
        call();
      } catch (error) {
        thrown.push(error);
      }
    }
    expect(thrown).toHaveLength(3);
    for (const error of thrown) {
      expect(error).toMatchObject({ name: 'SignableMessageError', code: 'GW_SIGNATURE' });
      expect(`${String(error)} ${JSON.stringify(error)} ${inspect(error)}`).not.toContain(SECRET);
    }
  });
});
