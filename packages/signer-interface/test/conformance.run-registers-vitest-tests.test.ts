import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';
import { SIGNER_CONFORMANCE_CHECK_IDS } from '../src/conformance/index.ts';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** Runs test/fixtures/broken-signers.conformance.ts in a nested vitest and returns each test's full name and state. */
async function runFixtureSuite(): Promise<Map<string, string>> {
  const exitCode = process.exitCode;
  const vitest = await startVitest(
    [],
    { root: packageRoot, config: false, include: ['test/fixtures/broken-signers.conformance.ts'], reporters: [], watch: false, pool: 'threads', maxWorkers: 1 },
    { resolve: { conditions: ['@gw/source'] }, ssr: { resolve: { conditions: ['@gw/source'] } } },
  );
  try {
    const states = new Map<string, string>();
    for (const module of vitest.state.getTestModules()) {
      for (const test of module.children.allTests()) states.set(test.fullName, test.result().state);
    }
    return states;
  } finally {
    await vitest.close();
    process.exitCode = exitCode; // the nested run's failures are expected; they must not fail this process
  }
}

describe('runSignerConformance', () => {
  it('registers one vitest test per check, fails the checks a broken verifier breaks, and passes an async signer', async () => {
    const states = await runFixtureSuite();
    const stateOf = (suite: string, idPrefix: string) =>
      [...states].filter(([name]) => name.startsWith(`${suite} > `) && name.includes(idPrefix)).map(([, state]) => state);

    expect(states.size).toBe(2 * SIGNER_CONFORMANCE_CHECK_IDS.length);
    expect(stateOf('always-true verifier', 'refuses the signature once any single field')).toEqual(['failed']);
    expect(stateOf('always-true verifier', 'returns false, without throwing')).toEqual(['failed']);
    expect(stateOf('always-true verifier', 'signs the same message the same way')).toEqual(['passed']);
    expect(stateOf('always-true verifier', 'refuses a signature made with a different secret')).toEqual(['skipped']);
    const asyncStates = [...states].filter(([name]) => name.startsWith('async reference signer > ')).map(([, state]) => state);
    expect(asyncStates.filter((state) => state === 'passed')).toHaveLength(SIGNER_CONFORMANCE_CHECK_IDS.length - 1);
  });
});
