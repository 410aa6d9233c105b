import { SignerConfigError } from '../signer-config-error.ts';
import { runConformanceCheck } from './check-signer-conformance.ts';
import { conformanceChecks } from './conformance-checks.ts';
import { createConformanceContext } from './conformance-context.ts';
import type { SignerConformanceFailure } from './signer-conformance-failure.ts';
import type { SignerConformanceOptions } from './signer-conformance-options.ts';

const SHOWN_FAILURES = 25;

// vitest is an optional peer dependency: loaded here without failing, not by a static import, so that this entry
// point (and `checkSignerConformance` in it) also loads in plain Node where vitest is not installed.
const vitest: typeof import('vitest') | null = await import('vitest').catch(() => null);

function describeFailure(failure: SignerConformanceFailure): string {
  const where = [failure.fixture, failure.path].filter(Boolean).join(' › ');
  return where ? `${where}: ${failure.message}` : failure.message;
}

/** Registers the conformance suite as vitest tests, one per check; call it at the top level of a test file. */
export function runSignerConformance(options: SignerConformanceOptions): void {
  if (vitest === null) {
    throw new SignerConfigError({
      option: 'runSignerConformance',
      problem: 'needs vitest (an optional peer dependency): install it, or call checkSignerConformance, which runs without a test runner',
    });
  }
  const { describe, expect, it } = vitest;
  const context = createConformanceContext(options);
  describe(options.name ?? 'Signer conformance', () => {
    for (const check of conformanceChecks) {
      const skipReason = check.skipReason?.(context);
      if (skipReason !== undefined) {
        it.skip(`${check.title} (${skipReason})`, () => {});
        continue;
      }
      it(check.title, async () => {
        const failures = await runConformanceCheck(check, context);
        const shown = failures.slice(0, SHOWN_FAILURES).map(describeFailure);
        if (failures.length > SHOWN_FAILURES) shown.push(`... and ${failures.length - SHOWN_FAILURES} more`);
        expect(shown, `${check.id}: ${failures.length} failure(s)`).toEqual([]);
      });
    }
  });
}
