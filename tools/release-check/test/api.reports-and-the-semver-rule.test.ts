import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingBumps } from '../api/changesets.ts';
import { checkReports, snapshotReleased, updateReports } from '../api/main.ts';

// A tiny workspace with two built packages in one fixed group, as the repository has: real files, real TypeScript.
function writePackage(root: string, name: string, declarations: string): void {
  const dir = join(root, 'packages', name);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `@gw/${name}`, version: '1.0.0', type: 'module', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }));
  writeFileSync(join(dir, 'dist/index.d.ts'), declarations);
}

function changeset(root: string, file: string, bumps: Record<string, string>): void {
  writeFileSync(join(root, '.changeset', file), `---\n${Object.entries(bumps).map(([n, b]) => `'${n}': ${b}`).join('\n')}\n---\nA change.\n`);
}

const V1 = 'export interface Order {\n  order_no?: string;\n  amount?: string;\n}\nexport declare function send(order: Order): Promise<void>;\n';

describe('API reports and the semver rule', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'gw-api-'));
    mkdirSync(join(root, '.changeset'));
    writeFileSync(join(root, '.changeset/config.json'), JSON.stringify({ fixed: [['@gw/*']] }));
    writePackage(root, 'a', V1);
    writePackage(root, 'b', 'export declare const limit = 50;\n');
    updateReports(root);
    snapshotReleased(root); // as `pnpm release` leaves it: 1.0.0 released with these reports
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('passes when the reports match the build and nothing changed since the release', () => {
    expect(checkReports(root)).toEqual([]);
  });

  it('fails when the API changed and its report was not updated, naming the added line', () => {
    writePackage(root, 'a', V1.replace('amount?: string;', 'amount?: string;\n  reference?: string;'));
    const problems = checkReports(root);
    expect(problems.join('\n')).toMatch(/@gw\/a: the API differs from packages\/a\/api\/a\.api\.md; run `pnpm api:update`/);
    expect(problems.join('\n')).toContain('export interface Order { :: reference?: string;');
  });

  it('a new optional field needs a minor changeset; with one the check passes', () => {
    writePackage(root, 'a', V1.replace('amount?: string;', 'amount?: string;\n  reference?: string;'));
    updateReports(root);
    expect(checkReports(root).join('\n')).toMatch(/@gw\/a: needs a minor changeset \(pending: none\)/);
    changeset(root, 'add-reference.md', { '@gw/a': 'minor' });
    expect(checkReports(root)).toEqual([]);
  });

  it('a removed field or a changed signature needs a major changeset; a minor one is not enough', () => {
    writePackage(root, 'a', V1.replace('  amount?: string;\n', '').replace('Promise<void>', 'Promise<string>'));
    updateReports(root);
    changeset(root, 'drop-amount.md', { '@gw/a': 'minor' });
    const text = checkReports(root).join('\n');
    expect(text).toMatch(/@gw\/a: needs a major changeset \(pending: minor\)/);
    expect(text).toContain('export interface Order { :: amount?: string;');
    expect(text).toContain('send(order: Order): Promise<void>;');
    changeset(root, 'drop-amount-major.md', { '@gw/a': 'major' });
    expect(checkReports(root)).toEqual([]);
  });

  it('in a fixed group a major changeset for any member covers every member', () => {
    changeset(root, 'x.md', { '@gw/b': 'major' });
    expect(pendingBumps(join(root, '.changeset'), ['@gw/a', '@gw/b', '@other/c'])).toEqual(new Map([['@gw/a', 'major'], ['@gw/b', 'major'], ['@other/c', 'none']]));
  });
});
