import type { ConformanceCheck } from './conformance-check.ts';
import { conformanceChecks } from './conformance-checks.ts';
import { createConformanceContext, type ConformanceContext } from './conformance-context.ts';
import { FailureList } from './failure-list.ts';
import type { SignerConformanceCheckId, SignerConformanceFailure } from './signer-conformance-failure.ts';
import type { SignerConformanceOptions } from './signer-conformance-options.ts';

/** Runs one check and returns its failures. */
export async function runConformanceCheck(check: ConformanceCheck, context: ConformanceContext): Promise<SignerConformanceFailure[]> {
  const failures = new FailureList(check.id);
  await check.run(context, failures);
  return failures.failures;
}

/** Options of `checkSignerConformance`: those of `runSignerConformance`, plus a way to run some checks only. */
export interface CheckSignerConformanceOptions extends SignerConformanceOptions {
  /** Run only these checks (default: all; `other-secret` still needs `signerWithOtherSecret`). */
  readonly only?: readonly SignerConformanceCheckId[];
}

/** Runs every check outside any test runner and returns the failures (empty when the signer conforms). */
export async function checkSignerConformance(options: CheckSignerConformanceOptions): Promise<SignerConformanceFailure[]> {
  const context = createConformanceContext(options);
  const failures: SignerConformanceFailure[] = [];
  for (const check of conformanceChecks) {
    if (options.only && !options.only.includes(check.id)) continue;
    if (check.skipReason?.(context) !== undefined) continue;
    failures.push(...(await runConformanceCheck(check, context)));
  }
  return failures;
}
