// The pending changesets (.changeset/*.md) and the bump each package gets from them, fixed groups included.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUMP_ORDER, type Bump } from './report-diff.ts';

/** The bumps one changeset file declares, by package name. */
export function parseChangeset(text: string): Map<string, Bump> {
  const bumps = new Map<string, Bump>();
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  for (const line of front.split(/\r?\n/)) {
    const match = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
    if (match) bumps.set(match[1]!.trim(), match[2] as Bump);
  }
  return bumps;
}

/** One pending changeset: its file (relative to the repository, `.changeset/<name>.md`) and the bumps it declares. */
export interface PendingChangeset {
  readonly file: string;
  readonly bumps: ReadonlyMap<string, Bump>;
}

/** The changesets pending in `changesetDir` (every `.md` but README.md), sorted by file name. */
export function readPendingChangesets(changesetDir: string): PendingChangeset[] {
  const files = existsSync(changesetDir)
    ? readdirSync(changesetDir)
        .filter((f) => f.endsWith('.md') && f !== 'README.md')
        .sort()
    : [];
  return files.map((file) => ({ file: `.changeset/${file}`, bumps: parseChangeset(readFileSync(join(changesetDir, file), 'utf8')) }));
}

/** Whether bump `a` is at least bump `b` (major ≥ minor ≥ patch ≥ none). */
export function atLeast(a: Bump, b: Bump): boolean {
  return BUMP_ORDER.indexOf(a) >= BUMP_ORDER.indexOf(b);
}

function max(a: Bump, b: Bump): Bump {
  return atLeast(a, b) ? a : b;
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
}

/**
 * The bump each of `packages` gets from the changesets pending in `changesetDir`: its own largest, or, for a package
 * in one of `.changeset/config.json`'s `fixed` groups, the largest of any package of its group (they version together).
 */
export function pendingBumps(changesetDir: string, packages: readonly string[]): Map<string, Bump> {
  const own = new Map<string, Bump>(packages.map((name) => [name, 'none']));
  for (const changeset of readPendingChangesets(changesetDir)) {
    for (const [name, bump] of changeset.bumps) own.set(name, max(own.get(name) ?? 'none', bump));
  }
  const configPath = join(changesetDir, 'config.json');
  const fixed: string[][] = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, 'utf8')).fixed ?? []) : [];
  const result = new Map<string, Bump>();
  for (const name of packages) {
    const group = fixed.find((patterns) => patterns.some((p) => globToRegExp(p).test(name)));
    const members = group ? [...own.keys()].filter((other) => group.some((p) => globToRegExp(p).test(other))) : [name];
    result.set(
      name,
      members.reduce<Bump>((acc, other) => max(acc, own.get(other) ?? 'none'), 'none'),
    );
  }
  return result;
}
