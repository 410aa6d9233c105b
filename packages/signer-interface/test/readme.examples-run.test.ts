import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startVitest } from 'vitest/node';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
// Inside the package (so `@gw/signer-interface` resolves to itself) but outside src/ and test/ (so typecheck skips it).
const scratch = fileURLToPath(new URL('../.readme-examples/', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
// The ```ts blocks that import something are examples; the others only show a shape.
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => /^import /m.test(code));
const scripts = examples.filter((code) => !code.includes('runSignerConformance('));
const suites = examples.filter((code) => code.includes('runSignerConformance('));

mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const file = `${scratch}example-${index}.ts`;
    writeFileSync(file, code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(pathToFileURL(file).href);
      const printed = log.mock.calls.map((args) => (Array.isArray(args[0]) ? JSON.stringify(args[0]) : String(args[0])));
      const promised = promisedOutputs(code);
      expect(printed).toHaveLength(promised.length);
      promised.forEach((expected, i) => expected !== undefined && expect(printed[i]).toBe(expected));
    } finally {
      log.mockRestore();
    }
  });

  it('the kit example passes as a vitest file of its own', async () => {
    writeFileSync(`${scratch}kit.conformance.ts`, suites[0]!);
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
