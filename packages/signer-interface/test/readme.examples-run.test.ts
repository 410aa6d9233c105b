import { fileURLToPath } from 'node:url';
import { exampleScratch, readmeExamples } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = exampleScratch(packageRoot);
const examples = readmeExamples(new URL('../README.md', import.meta.url));
const scripts = examples.filter((code) => !code.includes('runSignerConformance('));
const suites = examples.filter((code) => code.includes('runSignerConformance('));
afterAll(() => scratch.remove());

/** What each `console.log(...); // true|false|[]` line of an example promises to print first. */
function promisedOutputs(code: string): (string | undefined)[] {
  return [...code.matchAll(/console\.log\(.*\);(?: \/\/ (.*))?$/gm)].map((m) => /^(true|false|\[\])(?=\s|$)/.exec(m[1] ?? '')?.[1]);
}

describe('README examples', () => {
  it('include a script for each public function and a vitest file for the kit', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(5);
    expect(suites).toHaveLength(1);
  });

  it.each(scripts.map((code, i) => [i + 1, code] as const))('script %i runs and prints what its comments say', async (index, code) => {
    const { logged } = await scratch.run(`example-${index}.ts`, code);
    const printed = logged.map((args) => (Array.isArray(args[0]) ? JSON.stringify(args[0]) : String(args[0])));
    const promised = promisedOutputs(code);
    expect(printed).toHaveLength(promised.length);
    promised.forEach((expected, i) => expected !== undefined && expect(printed[i]).toBe(expected));
  });

  it('the kit example passes as a vitest file of its own', async () => {
    scratch.write('kit.conformance.ts', suites[0]!);
    const exitCode = process.exitCode;
    const vitest = await startVitest(
      [],
      { root: packageRoot, config: false, include: ['.readme-examples/kit.conformance.ts'], reporters: [], watch: false, pool: 'threads', maxWorkers: 1 },
      { resolve: { conditions: ['@gw/source'] }, ssr: { resolve: { conditions: ['@gw/source'] } } },
    );
    try {
      const states = vitest.state.getTestModules().flatMap((module) => [...module.children.allTests()].map((test) => test.result().state));
      expect(states).toHaveLength(13);
      expect(states.every((state) => state === 'passed')).toBe(true);
    } finally {
      await vitest.close();
      process.exitCode = exitCode;
    }
  });
});
