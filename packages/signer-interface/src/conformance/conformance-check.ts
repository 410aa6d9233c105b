import type { ConformanceContext } from './conformance-context.ts';
import type { FailureList } from './failure-list.ts';
import type { SignerConformanceCheckId } from './signer-conformance-failure.ts';

/** One check of the kit: an id, a sentence for the test name, and the function that finds failures. */
export interface ConformanceCheck {
  readonly id: SignerConformanceCheckId;
  readonly title: string;
  /** Why the check is skipped with these options, or undefined when it runs. */
  skipReason?(context: ConformanceContext): string | undefined;
  run(context: ConformanceContext, failures: FailureList): Promise<void>;
}
