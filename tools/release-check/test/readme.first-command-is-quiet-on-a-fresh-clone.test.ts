import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { plainNpmEnv, repoRoot } from '../pack.ts';
import { run } from '../registry/run.ts';

/** The repository as a fresh clone has it: tracked and new files, nothing ignored (no node_modules, no dist). */
function freshCopy(into: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).split('\0');
  for (const file of files.filter((f) => f && existsSync(join(repoRoot, f)))) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    try {
      cpSync(join(repoRoot, file), join(into, file));
    } catch (error) {
      // Other packages' tests, run beside this one in test:all, create and remove scratch files in the checkout.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

// The README's first command, as written, on the machine's own Node and npm (no Node 24 on PATH), in a fresh copy.
describe("the README's first command on a fresh clone", () => {
  const work = mkdtempSync(join(tmpdir(), 'gw-fresh-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs and runs the demo printing no warning a user could act on', async () => {
    const first = /```sh\n(.+)\n/.exec(readFileSync(join(repoRoot, 'README.md'), 'utf8'))?.[1];
    expect(first).toMatch(/install --frozen-lockfile && .* demo$/);
    freshCopy(work);
    const result = await run('bash', ['-c', first!], { cwd: work, env: plainNpmEnv(), timeoutMs: 540_000 });
    expect(result.stdout).toContain('invariants hold');
    // Colours (the test runner's FORCE_COLOR reaches pnpm) are not part of the words.
    const warnings = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /\bwarn/i.test(line));
    expect(warnings).toEqual([]);
    expect(result.stderr.trim()).toBe('');
  }, 600_000);
});
