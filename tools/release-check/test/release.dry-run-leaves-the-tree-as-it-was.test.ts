// `pnpm release --dry-run` in a scratch git repository made from this one: it runs the release's checks, prints what
// the release would version (each package, its version now → next, the bump, the changesets behind it), write and
// publish, and leaves the tree exactly as it was: `git status --porcelain` is empty, the changesets are still pending.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DryRunError, planRelease } from '../dry-run.ts';
import { repoRoot } from '../pack.ts';
import { copyRepoForRelease } from '../registry/scratch-repo.ts';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@gw.invalid', ...args], { cwd, encoding: 'utf8' });
const versionOf = (root: string, dir: string): string =>
  (JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as { version: string }).version;
const nextMinor = (version: string): string => version.replace(/^(\d+)\.(\d+)\.\d+$/, (_, major: string, minor: string) => `${major}.${Number(minor) + 1}.0`);
const scratchCopies = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('gw-release-dry-run-'));

// `pnpm release --dry-run --tests none` in `cwd`: the checks as `pnpm release` runs them (through pnpm: turbo asks for
// it), but no package's tests; the scratch copy builds with the checkout's turbo cache. Returns its output.
function dryRun(cwd: string): string {
  const commonDir = git(repoRoot, 'rev-parse', '--path-format=absolute', '--git-common-dir').trim();
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_config_/i.test(key))),
    TURBO_CACHE_DIR: join(dirname(commonDir), '.turbo/cache'),
  };
  const args = ['release', '--dry-run', '--tests', 'none'];
  const pnpm = process.env.npm_execpath;
  const settings = { cwd, env, encoding: 'utf8' as const, timeout: 480_000 };
  const result = pnpm && /pnpm/.test(pnpm) ? spawnSync(process.execPath, [pnpm, ...args], settings) : spawnSync('pnpm', args, settings);
  const output = `${result.stdout}${result.stderr}`;
  expect(result.status, output.slice(-4000)).toBe(0);
  return output;
}

describe('pnpm release --dry-run', () => {
  let work: string;
  let scratch: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'gw-release-dry-'));
    scratch = join(work, 'repo');
    // A release point (the committed versions, each API report its released one) with the team's two changesets.
    copyRepoForRelease(repoRoot, scratch, { withoutPendingChangesets: true });
    writeFileSync(
      join(scratch, '.changeset/capture-reference.md'),
      "---\n'@gw/types': minor\n'@gw/client': minor\n---\n\nCapture orders may carry a reference.\n",
    );
    writeFileSync(join(scratch, '.changeset/client-timeout-message.md'), "---\n'@gw/client': patch\n---\n\nThe timeout message names the operation.\n");
    git(scratch, 'add', '-A');
    git(scratch, 'commit', '-qm', 'two changesets');
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('prints each package with its version now → next, the bump and its changesets, and leaves git status empty', () => {
    const before = scratchCopies();
    const output = dryRun(scratch);
    expect(git(scratch, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(existsSync(join(scratch, '.changeset/capture-reference.md'))).toBe(true);
    expect(scratchCopies()).toEqual(before); // the scratch copy it versioned is gone

    const types = versionOf(scratch, 'types');
    const next = nextMinor(types);
    expect(output).toMatch(
      new RegExp(
        `^  @gw/types +${types.replaceAll('.', '\\.')} → ${next.replaceAll('.', '\\.')}  minor, from 1 changeset\\(s\\):\\n +\\.changeset/capture-reference\\.md$`,
        'm',
      ),
    );
    expect(output).toMatch(
      /^ {2}@gw\/client +\S+ → \S+ {2}minor, from 2 changeset\(s\):\n +\.changeset\/capture-reference\.md, \.changeset\/client-timeout-message\.md$/m,
    );
    // A package no changeset names is versioned with its fixed group, and says so.
    expect(output).toMatch(/^ {2}@gw\/xml-codec +\S+ → \S+ {2}minor, from 0 changeset\(s\)\n +\(no changeset names it: versioned with its fixed group\)$/m);
    expect(output).not.toMatch(/@gw\/release-check +0\.0\.0/); // private: never versioned
    expect(output).toContain('release: --dry-run: it would write');
    expect(output).toMatch(/^ {2}changes packages\/types\/package\.json$/m);
    expect(output).toMatch(/^ {2}(changes|writes) +packages\/types\/CHANGELOG\.md$/m);
    expect(output).toContain('and delete 2 changeset(s)');
    expect(output).toContain(`would publish @gw/batch@${next}, `);
    expect(output).toContain('this tree is as it was, nothing was versioned or published');
  }, 600_000);

  it('a changeset changesets cannot read stops the dry run with its message; the tree and the temporary folder are as they were', () => {
    const before = scratchCopies();
    writeFileSync(join(scratch, '.changeset/unknown-package.md'), "---\n'@gw/nonexistent': minor\n---\n\nA package that is not in the workspace.\n");
    try {
      expect(() => planRelease(scratch)).toThrow(DryRunError);
      expect(() => planRelease(scratch)).toThrow(/changeset status failed in the scratch copy[\s\S]*@gw\/nonexistent/);
      expect(git(scratch, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .changeset/unknown-package.md\n');
      expect(scratchCopies()).toEqual(before);
    } finally {
      rmSync(join(scratch, '.changeset/unknown-package.md'));
    }
  });

  it('with no pending changeset it says nothing would be versioned and names the committed versions publish would send', () => {
    git(scratch, 'rm', '-q', '.changeset/capture-reference.md', '.changeset/client-timeout-message.md');
    git(scratch, 'commit', '-qm', 'released');
    const output = dryRun(scratch);
    expect(output).toContain('release: --dry-run: no pending changeset: nothing would be versioned or written');
    expect(output).toContain(`@gw/types@${versionOf(scratch, 'types')}`);
    expect(output).not.toContain('@gw/release-check@');
    expect(git(scratch, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  }, 600_000);
});
