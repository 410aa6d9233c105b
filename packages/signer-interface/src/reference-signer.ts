import { assertSignableMessage } from './assert-signable-message.ts';
import type { SignableMessage } from './signable-message.ts';
import { signaturesMatch } from './signatures-match.ts';
import type { Signer } from './signer.ts';
import type { Verifier } from './verifier.ts';

/** A reference signer: one object that both signs and verifies, synchronously. An example, not the gateway's algorithm. */
export interface ReferenceSigner extends Signer, Verifier {
  /** Which example algorithm this is; the secret is never shown, by any means. */
  readonly algorithm: 'hmac-sha256-sorted-pairs' | 'sha256-concat';
  sign(message: SignableMessage): string;
  /** Recomputes the signature and compares in constant time; false for a mismatch, a wrong length or a non-string. */
  verify(message: SignableMessage, signature: string): boolean;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Wraps a signing function (which holds the secret in its closure) into a `ReferenceSigner` that cannot reveal it;
 * `compute` is handed only messages `sign` and `verify` have checked.
 */
export function createReferenceSigner(options: { algorithm: ReferenceSigner['algorithm']; compute: (message: SignableMessage) => string }): ReferenceSigner {
  const { algorithm, compute } = options;
  const label = `ReferenceSigner(${algorithm})`;
  const signer: ReferenceSigner = {
    algorithm,
    sign(message) {
      assertSignableMessage(message);
      return compute(message);
    },
    verify(message, signature) {
      assertSignableMessage(message);
      if (typeof signature !== 'string') return false;
      return signaturesMatch({ expected: compute(message), received: signature });
    },
  };
  // Non-enumerable so the object's only visible members are algorithm, sign and verify.
  Object.defineProperties(signer, {
    toString: { value: () => label },
    toJSON: { value: () => ({ algorithm }) },
    [INSPECT]: { value: () => label },
  });
  return Object.freeze(signer);
}
