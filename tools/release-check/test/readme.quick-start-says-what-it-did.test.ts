// The root README's quick start is the first code a new team runs: it prints what it did (the payment authorised, the
// capture), so success does not look like silence. Run as a reader runs it, from a file of its own, on Node 24 and 22.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../pack.ts';

const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');

/** The README's "Quick start with `@gw/client`" block. */
function quickStart(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = /## Quick start with `@gw\/client`\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README: the quick start has changed shape; update this test with it');
  return block;
}

// A folder of its own outside the repository whose node_modules is this package's, so the imports resolve to the
// workspace's @gw packages as a consumer's resolve to the installed ones.
const dir = mkdtempSync(join(tmpdir(), 'gw-quick-start-'));
symlinkSync(join(import.meta.dirname, '..', 'node_modules'), join(dir, 'node_modules'));
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the README's quick start", () => {
  it('prints the payment it authorised, the capture and that it stopped, on Node 24 and on Node 22', () => {
    const file = join(dir, 'quick-start.ts');
    writeFileSync(file, quickStart());
    const nodes = [process.execPath];
    if (existsSync(node22)) nodes.push(node22);
    else if (process.env.CI) throw new Error('Node 22 missing: run `pnpm test:node22` first');
    for (const node of nodes) {
      const run = spawnSync(node, ['--conditions=@gw/source', file], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      });
      expect(run.status, `${node}: ${run.stderr}`).toBe(0);
      expect(run.stdout, node).toMatch(
        /^authorised A-1: transaction \S+, order_status 1 .*\ncaptured A-1: capture_status 1 .*\ndone: the sandbox is stopped\n$/,
      );
    }
  }, 150_000);
});
