// The README's examples run, and print what their `// ...` comments promise (a comment ending in `...` is a prefix).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Inside the package (so `@gw/types` resolves to itself) but outside src/ and test/ (so typecheck skips it).
const scratch = fileURLToPath(new URL('../.readme-examples/', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => /^import /m.test(code));

mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const file = `${scratch}example-${index}.ts`;
    writeFileSync(file, code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(pathToFileURL(file).href);
      const calls = log.mock.calls;
      const promised = promisedOutputs(code);
      expect(calls).toHaveLength(promised.length);
      promised.forEach((promise, i) => promise !== undefined && expectPrinted(calls[i]!, promise));
    } finally {
      log.mockRestore();
    }
  });
});
