#!/usr/bin/env node
// `pnpm spec:changeset <major|minor|patch> "<summary>" [@gw/package ...]`: records a change without a terminal
// (`pnpm changeset` asks its questions interactively and exits 13 without one). Writes .changeset/<random-name>.md
// with changesets' own writer; the packages default to @gw/types (every @gw package is in one fixed group, so a bump of
// one versions them all together).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeChangeset } from '@changesets/write';

const BUMPS = ['major', 'minor', 'patch'] as const;
type Bump = (typeof BUMPS)[number];

/** The publishable packages of the workspace at `root` (packages/*, not private), by name. */
function packageNames(root: string): string[] {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; private?: boolean })
    .filter((pkg) => !pkg.private)
    .map((pkg) => pkg.name)
    .sort();
}

/** Every problem with the arguments at once (an empty list when they are good). */
export function changesetProblems(root: string, bump: string | undefined, summary: string | undefined, packages: readonly string[]): string[] {
  const known = packageNames(root);
  const problems: string[] = [];
  if (!BUMPS.includes(bump as Bump))
    problems.push(
      `the bump must be one of ${BUMPS.join(', ')} (got ${bump === undefined ? 'nothing' : JSON.stringify(bump)}): major removes or changes what a release had, minor adds (an optional field, an operation), patch fixes`,
    );
  if (!summary?.trim()) problems.push('the summary is missing: one or two sentences for the CHANGELOG, saying what changed for a team that uses the packages');
  for (const name of packages) if (!known.includes(name)) problems.push(`${name} is not a package of this workspace; one of ${known.join(', ')}`);
  return problems;
}

/** Writes the changeset into `root/.changeset`; returns its path. */
export async function addChangeset(root: string, bump: Bump, summary: string, packages: readonly string[]): Promise<string> {
  const releases = (packages.length > 0 ? packages : ['@gw/types']).map((name) => ({ name, type: bump }));
  const id = await writeChangeset({ summary: summary.trim(), releases }, root, { format: false });
  return join(root, '.changeset', `${id}.md`);
}

if (import.meta.filename === process.argv[1]) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { root: { type: 'string' } } });
  const root = resolve(values.root ?? join(import.meta.dirname, '../..'));
  const [bump, summary, ...packages] = positionals;
  const problems = changesetProblems(root, bump, summary, packages);
  if (problems.length > 0) {
    console.error(
      `spec:changeset: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}\nusage: pnpm spec:changeset <major|minor|patch> "<summary>" [@gw/package ...]`,
    );
    process.exit(2);
  }
  const file = await addChangeset(root, bump as Bump, summary!, packages);
  console.log(
    `spec:changeset: wrote ${relative(root, file)} (${bump}${packages.length > 0 ? ` for ${packages.join(', ')}` : ''}; every @gw package versions with it). Commit it with the change.`,
  );
}
