// The README's examples run, and print what their `// ...` comments promise (a comment ending in `...` is a prefix).
import { exampleScratch, readmeExamples } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
const examples = readmeExamples(new URL('../README.md', import.meta.url));
afterAll(() => scratch.remove());

/** The comment after each `console.log(...);` line of an example: what it promises to print. */
function promisedOutputs(code: string): (string | undefined)[] {
  return [...code.matchAll(/console\.log\(.*\);(?: \/\/ (.*))?$/gm)].map((m) => m[1]);
}

function printed(args: unknown[]): string {
  return args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ');
}

function expectPrinted(actual: unknown[], promise: string): void {
  if (promise.startsWith('[')) {
    expect(actual[0]).toEqual(JSON.parse(promise.replace(/'((?:[^'\\]|\\.)*)'/g, (_m, inner: string) => JSON.stringify(inner))));
  } else if (promise.endsWith('...')) {
    expect(printed(actual).startsWith(promise.slice(0, -3).trimEnd())).toBe(true);
    expect(printed(actual)).not.toBe(promise.slice(0, -3).trimEnd());
  } else {
    expect(printed(actual)).toBe(promise);
  }
}

describe('README examples', () => {
  it('there are examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i runs and prints what its comments say', async (index, code) => {
    const { logged } = await scratch.run(`example-${index}.ts`, code);
    const promised = promisedOutputs(code);
    expect(logged).toHaveLength(promised.length);
    promised.forEach((promise, i) => promise !== undefined && expectPrinted(logged[i]!, promise));
  });
});
