import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parseChangeset from '@changesets/parse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingBumps } from '../api/changesets.ts';
import { repoRoot } from '../pack.ts';
import { run } from '../registry/run.ts';

const script = join(import.meta.dirname, '../changeset-add.ts');
const changesetBin = join(repoRoot, 'node_modules/.bin/changeset');

// A workspace of two packages in one fixed group, as the repository has; every command runs with no terminal
// (standard input closed, output piped), as in CI or a script.
describe('pnpm spec:changeset <bump> "<summary>" [package ...]', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'gw-changeset-'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'root', private: true }));
    writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
    mkdirSync(join(root, '.changeset'));
    // The repository's own changelog module (.changeset/config.json names it relative to .changeset/).
    const config = JSON.parse(readFileSync(join(repoRoot, '.changeset/config.json'), 'utf8')) as { changelog: string };
    writeFileSync(
      join(root, '.changeset/config.json'),
      JSON.stringify({
        changelog: join(repoRoot, '.changeset', config.changelog),
        commit: false,
        fixed: [['@gw/*']],
        access: 'restricted',
        baseBranch: 'main',
      }),
    );
    for (const name of ['types', 'client']) {
      mkdirSync(join(root, 'packages', name), { recursive: true });
      const dependencies = name === 'client' ? { '@gw/types': 'workspace:*' } : {};
      writeFileSync(join(root, 'packages', name, 'package.json'), JSON.stringify({ name: `@gw/${name}`, version: '1.0.0', dependencies }));
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const pending = () => readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md'));

  it('writes a changeset that changesets reads and `changeset version` applies: a minor of @gw/types makes every package 1.1.0', async () => {
    const result = await run(process.execPath, [script, '--root', root, 'minor', 'Capture orders may carry `merchant_reference`.'], { cwd: root });
    expect(result.stdout).toMatch(/^spec:changeset: wrote \.changeset\/[a-z-]+\.md \(minor; every @gw package versions with it\)/);
    const [file] = pending();
    const parsed = parseChangeset(readFileSync(join(root, '.changeset', file!), 'utf8'));
    expect(parsed).toEqual({ summary: 'Capture orders may carry `merchant_reference`.', releases: [{ name: '@gw/types', type: 'minor' }] });
    expect(pendingBumps(join(root, '.changeset'), ['@gw/types', '@gw/client'])).toEqual(
      new Map([
        ['@gw/types', 'minor'],
        ['@gw/client', 'minor'],
      ]),
    );
    await run(changesetBin, ['version'], { cwd: root });
    for (const name of ['types', 'client']) expect(JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')).version, name).toBe('1.1.0');
    expect(pending()).toEqual([]);
    // The CHANGELOGs: the summary where it was recorded, one line naming what a package was released with elsewhere.
    expect(readFileSync(join(root, 'packages/types/CHANGELOG.md'), 'utf8')).toBe(
      '# @gw/types\n\n## 1.1.0\n\n### Minor Changes\n\n- Capture orders may carry `merchant_reference`.\n',
    );
    expect(readFileSync(join(root, 'packages/client/CHANGELOG.md'), 'utf8')).toBe(
      '# @gw/client\n\n## 1.1.0\n\n### Patch Changes\n\n- Released with @gw/types@1.1.0: every @gw package is versioned together.\n',
    );
  });

  it('names the packages given, each with the bump', async () => {
    await run(process.execPath, [script, '--root', root, 'patch', 'The client retries a refused connection once.', '@gw/client'], { cwd: root });
    expect(parseChangeset(readFileSync(join(root, '.changeset', pending()[0]!), 'utf8')).releases).toEqual([{ name: '@gw/client', type: 'patch' }]);
  });

  it('refuses bad arguments with every problem named, exit 2, and writes nothing', async () => {
    const result = await run(process.execPath, [script, '--root', root, 'minr', ' ', '@gw/nope'], { cwd: root, allowFailure: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('3 problem(s)');
    expect(result.stderr).toContain('the bump must be one of major, minor, patch (got "minr")');
    expect(result.stderr).toContain('the summary is missing');
    expect(result.stderr).toContain('@gw/nope is not a package of this workspace; one of @gw/client, @gw/types');
    expect(pending()).toEqual([]);
  });

  it('is needed: `changeset` itself asks its questions and gives up without a terminal', async () => {
    const result = await run(changesetBin, ['add'], { cwd: root, allowFailure: true, timeoutMs: 30_000 });
    expect(result.code).not.toBe(0);
    expect(pending()).toEqual([]);
  });
});
