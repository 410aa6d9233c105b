import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { exampleScratch, readmeBlocks } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../pack.ts';

const run = promisify(execFile);
// Inside this package, whose dependencies are every @gw package, so an example's imports resolve as a consumer's would.
const scratch = exampleScratch(join(import.meta.dirname, '..'));
const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');
// A reader runs an example from a shell, not from inside a vitest worker, whose variables make `vitest` act as a runner.
const readerEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

/** Every ```ts block of the root and package READMEs that imports something: the examples a reader copies. */
function everyReadmeExample(): { name: string; code: string }[] {
  const readmes = [join(repoRoot, 'README.md'), ...readdirSync(join(repoRoot, 'packages')).map((dir) => join(repoRoot, 'packages', dir, 'README.md'))];
  return readmes
    .filter((file) => existsSync(file))
    .flatMap((file) => {
      const where = file === join(repoRoot, 'README.md') ? 'README' : `${file.split('/').at(-2)}-README`;
      return (
        readmeBlocks(file)
          .map((code, i) => ({ name: `${where}-${i + 1}`, code }))
          .filter(({ code }) => /^import /m.test(code))
          // A test file of its own (the conformance kit's `// my-signer.conformance.test.ts`) runs under its test runner;
          // @gw/signer-interface's own tests run that one under vitest.
          .filter(({ code }) => !/^\/\/ \S+\.test\.ts\b/.test(code) && !/from 'vitest'/.test(code))
      );
    });
}

const examples = everyReadmeExample();
afterAll(() => scratch.remove());

// Examples of the PostgreSQL ledger read GW_LEDGER_URL, as a reader's would: a throwaway cluster, a database per run.
const LEDGER_ENV = 'GW_LEDGER_URL';
let postgres: { url: string; stop: () => void } | null = null;
let databases = 0;
beforeAll(async () => {
  if (examples.some((e) => e.code.includes(LEDGER_ENV))) postgres = await startCluster();
}, 60_000);
afterAll(() => postgres?.stop());

async function exampleEnv(code: string): Promise<Record<string, string>> {
  if (!code.includes(LEDGER_ENV) || !postgres) return readerEnv;
  databases += 1;
  return { ...readerEnv, [LEDGER_ENV]: await createDatabase(postgres.url, `readme_example_${databases}`) };
}

describe('README examples', () => {
  it('are found in every package README that has code', () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
  });

  // The published packages support Node 22.18+ and 24: an example that only runs on one of them is a broken promise.
  it.each(examples.map((e) => [e.name, e.code] as const))(
    '%s runs to completion on Node 24 and on Node 22',
    async (name, code) => {
      const file = scratch.write(`${name}.ts`, code);
      const nodes = [process.execPath];
      // test:all installs Node 22 before any test runs (scripts/run-tests.ts); a local run without it says so rather than pretending.
      if (existsSync(node22)) nodes.push(node22);
      else if (process.env.CI) throw new Error('Node 22 missing: run `pnpm test:node22` first');
      for (const [i, node] of nodes.entries()) {
        // Each run in a folder of its own: an example may write files (a CSV, a journal) that a second run must not find.
        const cwd = join(scratch.dir, `${name}-run-${i + 1}`);
        mkdirSync(cwd, { recursive: true });
        const env = await exampleEnv(code);
        const result = await run(node, ['--conditions=@gw/source', file], { cwd, env, timeout: 60_000, encoding: 'utf8' }).catch(
          (error: { code?: number; stderr?: string }) => ({ failed: error.code ?? 'timeout', stderr: error.stderr ?? '' }),
        );
        expect('failed' in result ? `${node}: ${result.stderr.split('\n').slice(0, 6).join('\n')}` : 'ok').toBe('ok');
      }
    },
    150_000,
  );
});
