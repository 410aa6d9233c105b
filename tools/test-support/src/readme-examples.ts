// A README's examples, run as a reader would: each block written to a file inside the package (so the package's own
// name resolves to itself, and its dependencies' names to them) and imported, with what it prints recorded.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The fenced blocks of `language` in the README at `readme` (a path or a file URL), in order. */
export function readmeBlocks(readme: string | URL, language = 'ts'): string[] {
  const text = readFileSync(readme, 'utf8');
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

/** The blocks of `language` that import something: the examples a reader runs (the others only show a shape). */
export function readmeExamples(readme: string | URL, language = 'ts'): string[] {
  return readmeBlocks(readme, language).filter((code) => /^import /m.test(code));
}

/** What importing one example gave: its module, and the arguments of each `console.log` call it made meanwhile. */
export interface ExampleRun {
  readonly module: Record<string, unknown>;
  readonly logged: unknown[][];
}

/** A folder for a package's README examples: write one, run one, remove the folder. */
export interface ExampleScratch {
  readonly dir: string;
  /** Writes `code` as the file `name` of the folder and returns its path. */
  write(name: string, code: string): string;
  /** Writes `code` as `name` and imports it; `console.log` is recorded, not printed, until the import settles. */
  run(name: string, code: string): Promise<ExampleRun>;
  remove(): void;
}

/**
 * The folder `.readme-examples/` of the package at `packageDir`: inside it, so the examples' imports resolve as the
 * package's would, but outside src/ and test/, so typecheck skips it (and .gitignore names it).
 */
export function exampleScratch(packageDir: string | URL): ExampleScratch {
  const dir = join(typeof packageDir === 'string' ? packageDir : fileURLToPath(packageDir), '.readme-examples');
  mkdirSync(dir, { recursive: true });
  const write = (name: string, code: string): string => {
    const file = join(dir, name);
    writeFileSync(file, code);
    return file;
  };
  return {
    dir,
    write,
    async run(name, code) {
      const file = write(name, code);
      const logged: unknown[][] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => void logged.push(args);
      try {
        const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
        return { module, logged };
      } finally {
        console.log = log;
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
