import type { SignableMessage } from '../signable-message.ts';
import { ConformanceProblem, type ConformanceContext } from './conformance-context.ts';
import type { SignerConformanceCheckId, SignerConformanceFailure } from './signer-conformance-failure.ts';

/** Where a failure happened: the fixture and, for field edits, the field path. */
export interface FailureLocation {
  readonly fixture?: string;
  readonly path?: string;
}

/** Collects the failures of one check; a contract breach in one step is recorded and the next step still runs. */
export class FailureList {
  readonly failures: SignerConformanceFailure[] = [];
  readonly #check: SignerConformanceCheckId;

  constructor(check: SignerConformanceCheckId) {
    this.#check = check;
  }

  /** Records a failure. */
  fail(where: FailureLocation, message: string): void {
    this.failures.push({ check: this.#check, ...where, message });
  }

  /** Runs a step; a `ConformanceProblem` (the signer threw or returned the wrong type) becomes a failure. */
  async attempt(where: FailureLocation, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof ConformanceProblem)) throw error;
      this.fail(where, error.message);
    }
  }

  /** Fails unless the verifier refuses `signature` for `message`; `change` says what was done, e.g. "changing the value". */
  async expectRefused(context: ConformanceContext, where: FailureLocation, message: SignableMessage, signature: string, change: string): Promise<void> {
    await this.attempt(where, async () => {
      if (await context.verify(message, signature)) this.fail(where, `verify accepted the signature after ${change}`);
    });
  }
}
