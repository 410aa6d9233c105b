// `pnpm api:check` as a team runs it, on a workspace of real built packages released as 1.0.0: for each package whose
// API differs from its released report it names the bump the change needs and the pending changesets naming that
// package with at least that bump, and fails when there are none, even while other packages' minor changesets are
// pending (a fixed group versions every member with them, but they were written for other changes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotReleased, updateReports } from '../api/main.ts';
import { changeset, V1, writePackage, writeWorkspace } from './support/api-workspace.ts';

const MAIN = join(import.meta.dirname, '../api/main.ts');

function apiCheck(root: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [MAIN, '--check', '--root', root], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('api:check names the bump a change needs and the changesets that cover it', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'gw-api-check-'));
    writeWorkspace(root);
    writePackage(root, 'a', V1);
    writePackage(root, 'b', 'export declare const limit = 50;\n');
    updateReports(root);
    snapshotReleased(root); // 1.0.0 released with these reports
    // The team's change: a new optional field, its report updated as the README says.
    writePackage(root, 'a', V1.replace('amount?: string;', 'amount?: string;\n  reference?: string;'));
    updateReports(root);
    // Another team's minor change of another package is pending: the fixed group is bumped minor whatever happens.
    changeset(root, 'b-gets-a-limit-option.md', { '@gw/b': 'minor' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a new optional field with no changeset of its own fails, naming the package and "minor"', () => {
    const { status, stdout, stderr } = apiCheck(root);
    expect(status).toBe(1);
    expect(stdout).toMatch(
      /@gw\/a: needs minor \(adds 1 line\(s\) to the last release\)\n\s+NOT covered: no pending changeset names @gw\/a with minor or more \(naming it: none; its fixed group is bumped minor by changesets naming other packages/,
    );
    expect(stderr).toContain('@gw/a: needs a minor changeset naming it (pending for @gw/a: none)');
    expect(stderr).toContain('export interface Order { :: reference?: string;');
    expect(stderr).toContain('pnpm spec:changeset minor "<what changed, for the CHANGELOG>" @gw/a');
    expect(stderr).toMatch(
      /^api:check: record the change\(s\) in one changeset naming every package they touch: pnpm spec:changeset minor "<what changed, for the CHANGELOG>" @gw\/a$/m,
    );
  });

  it('a patch changeset for the package is not enough: it fails, naming the changeset and its bump', () => {
    changeset(root, 'a-fix.md', { '@gw/a': 'patch' });
    const { status, stdout, stderr } = apiCheck(root);
    expect(status).toBe(1);
    expect(stdout).toContain('no pending changeset names @gw/a with minor or more (naming it only with less: .changeset/a-fix.md (patch)');
    expect(stderr).toContain('@gw/a: needs a minor changeset naming it (pending for @gw/a: patch in .changeset/a-fix.md)');
  });

  it('a minor changeset naming the package passes, and the output names the bump and the changeset file', () => {
    changeset(root, 'a-fix.md', { '@gw/a': 'patch' });
    changeset(root, 'a-reference.md', { '@gw/a': 'minor', '@gw/b': 'minor' });
    const { status, stdout, stderr } = apiCheck(root);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/@gw\/a: needs minor \(adds 1 line\(s\) to the last release\)\n\s+covered by \.changeset\/a-reference\.md \(minor\)\n/);
    // Whether a-reference.md was written for this field the files cannot tell: the check says so rather than guess.
    expect(stdout).toContain('it may have been written for another change of the same package: the files cannot tell');
    expect(stdout).not.toContain('@gw/b: needs'); // b's API is as released
    expect(stdout).toContain('api:check: every API report matches the build and the pending changesets');
  });

  it('a major changeset covers an added field; a removed field needs major, which a minor one does not cover', () => {
    changeset(root, 'a-reference.md', { '@gw/a': 'major' });
    expect(apiCheck(root).stdout).toContain('covered by .changeset/a-reference.md (major)');
    writePackage(root, 'a', V1.replace('  amount?: string;\n', ''));
    updateReports(root);
    changeset(root, 'a-reference.md', { '@gw/a': 'minor' });
    const { status, stdout } = apiCheck(root);
    expect(status).toBe(1);
    expect(stdout).toMatch(
      /@gw\/a: needs major \(removes or changes 1 line\(s\) of the last release\)\n\s+NOT covered: no pending changeset names @gw\/a with major or more \(naming it only with less: \.changeset\/a-reference\.md \(minor\)\)/,
    );
  });

  it('a doc comment only needs none, and passes without a changeset', () => {
    writePackage(root, 'a', V1.replace('  amount?: string;', '  /** The amount, two decimals. */\n  amount?: string;'));
    updateReports(root);
    const { status, stdout } = apiCheck(root);
    expect(status).toBe(0);
    expect(stdout).toContain('@gw/a: needs none (only doc comments or imports differ); no changeset needed');
  });
});
