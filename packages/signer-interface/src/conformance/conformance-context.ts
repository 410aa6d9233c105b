import { createSignableMessage, type SignableMessage } from '../signable-message.ts';
import { omitEncryptionData } from '../omit-encryption-data.ts';
import { SignerConfigError } from '../signer-config-error.ts';
import type { Signer } from '../signer.ts';
import type { ConformanceFixture } from './conformance-fixtures.ts';
import type { SignerConformanceOptions } from './signer-conformance-options.ts';

/** A contract breach found while calling the signer or verifier (a throw, a wrong return type). */
export class ConformanceProblem extends Error {
  override readonly name = 'ConformanceProblem';
}

/** What every check uses: message building, and sign/verify calls that turn contract breaches into problems. */
export interface ConformanceContext {
  readonly hasOtherSecret: boolean;
  messageOf(fixture: Pick<ConformanceFixture, 'operation'>, record: object): SignableMessage;
  sign(message: SignableMessage): Promise<string>;
  signWithOtherSecret(message: SignableMessage): Promise<string>;
  verify(message: SignableMessage, signature: string): Promise<boolean>;
  covers(path: string): boolean;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function describeResult(value: unknown): string {
  if (value === '') return 'an empty string';
  return value === null ? 'null' : typeof value;
}

async function callSign(signer: Signer, message: SignableMessage, who: string): Promise<string> {
  let signature: unknown;
  try {
    signature = await signer.sign(message);
  } catch (error) {
    throw new ConformanceProblem(`${who}.sign threw ${describeError(error)}`);
  }
  if (typeof signature !== 'string' || signature === '') {
    throw new ConformanceProblem(`${who}.sign returned ${describeResult(signature)}, not a non-empty string (or a promise of one)`);
  }
  return signature;
}

/** Checks the options (a config error names the bad option) and builds the context the checks run with. */
export function createConformanceContext(options: SignerConformanceOptions): ConformanceContext {
  if (options === null || typeof options !== 'object') {
    throw new SignerConfigError({ option: 'runSignerConformance', problem: 'needs an options object: { signer, verifier }' });
  }
  const { signer, verifier, signerWithOtherSecret, signedFields } = options;
  if (typeof signer?.sign !== 'function') throw new SignerConfigError({ option: 'signer', problem: 'must have a sign(message) method' });
  if (typeof verifier?.verify !== 'function') {
    throw new SignerConfigError({ option: 'verifier', problem: 'must have a verify(message, signature) method' });
  }
  if (signerWithOtherSecret !== undefined && typeof signerWithOtherSecret?.sign !== 'function') {
    throw new SignerConfigError({ option: 'signerWithOtherSecret', problem: 'must have a sign(message) method' });
  }
  if (signedFields !== undefined && typeof signedFields !== 'function') {
    throw new SignerConfigError({ option: 'signedFields', problem: 'must be a function (path) => boolean' });
  }
  return {
    hasOtherSecret: signerWithOtherSecret !== undefined,
    messageOf: (fixture, record) => createSignableMessage({ operation: fixture.operation, record, body: JSON.stringify(omitEncryptionData(record)) }),
    sign: (message) => callSign(signer, message, 'signer'),
    signWithOtherSecret: (message) => {
      if (!signerWithOtherSecret) throw new ConformanceProblem('no signerWithOtherSecret was given');
      return callSign(signerWithOtherSecret, message, 'signerWithOtherSecret');
    },
    verify: async (message, signature) => {
      let verdict: unknown;
      try {
        verdict = await verifier.verify(message, signature);
      } catch (error) {
        throw new ConformanceProblem(`verifier.verify threw ${describeError(error)} instead of returning false`);
      }
      if (typeof verdict !== 'boolean') {
        throw new ConformanceProblem(`verifier.verify returned ${describeResult(verdict)}, not a boolean (or a promise of one)`);
      }
      return verdict;
    },
    covers: (path) => (signedFields ? signedFields(path) === true : true),
  };
}
