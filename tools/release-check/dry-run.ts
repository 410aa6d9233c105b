// `pnpm release --dry-run`: what the release would version, write and publish, worked out in a scratch copy of the
// tree (scratch-tree.ts) that is removed afterwards, so the tree is left exactly as it was. In the copy it asks
// changesets for the plan (`changeset status --output`: each package's version now and next, its bump and the
// changesets behind it), then runs what `pnpm release` runs (`changeset version`, the released API reports) and lists
// the files that changed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyScratchTree, removeScratchTree, scratchChanges } from './scratch-tree.ts';

/** One package the release versions, as `changeset status --output` describes it. */
export interface PlannedRelease {
  readonly name: string;
  readonly type: string;
  readonly oldVersion: string;
  readonly newVersion: string;
  /** The ids (file names without `.md`) of the pending changesets that name the package. */
  readonly changesets: string[];
}

/** What a release from the tree would do. */
export interface DryRunPlan {
  readonly releases: PlannedRelease[];
  /** `git status --porcelain` lines of the scratch copy after versioning: what the release would write. */
  readonly writes: string[];
}

/** Thrown when a step of the dry run fails in the scratch copy; the message holds its output. */
export class DryRunError extends Error {
  override readonly name = 'DryRunError';
  readonly code = 'RELEASE_DRY_RUN_FAILED';
}

function run(cwd: string, title: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0)
    throw new DryRunError(`${title} failed in the scratch copy (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
}

/** Works out in a scratch copy of `root`, removed afterwards, what `pnpm release` would version and write there. */
export function planRelease(root: string): DryRunPlan {
  const scratch = copyScratchTree(root);
  try {
    const changeset = join(scratch, 'node_modules/.bin/changeset');
    const statusFile = join(scratch, '.release-plan.json');
    run(scratch, 'changeset status', changeset, ['status', `--output=${statusFile}`]);
    const releases = (JSON.parse(readFileSync(statusFile, 'utf8')) as { releases: PlannedRelease[] }).releases;
    run(scratch, 'changeset version', changeset, ['version']);
    run(scratch, 'released api reports', process.execPath, [join(scratch, 'tools/release-check/api/main.ts'), '--snapshot', '--root', scratch]);
    const writes = scratchChanges(scratch).filter((line) => !line.endsWith(' .release-plan.json'));
    return { releases: releases.sort((a, b) => a.name.localeCompare(b.name)), writes };
  } finally {
    removeScratchTree(scratch);
  }
}

const KINDS: Record<string, string> = { M: 'changes', D: 'deletes', '??': 'writes', A: 'writes' };
const isChangeset = (line: string): boolean => /^ ?D\s+\.changeset\//.test(line);

// `.changeset/a.md, .changeset/b.md, ...` wrapped under a package's line.
function changesetLines(ids: readonly string[]): string[] {
  if (ids.length === 0) return ['      (no changeset names it: versioned with its fixed group)'];
  const lines: string[] = [];
  for (const file of ids.map((id) => `.changeset/${id}.md`)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + file.length < 116) lines[lines.length - 1] = `${last}, ${file}`;
    else lines.push(`      ${file}`);
  }
  return lines;
}

/** The plan as `pnpm release --dry-run` prints it: each package with its versions, bump and changesets, then the files. */
export function formatPlan(plan: DryRunPlan, registry: string): string {
  const versioned = plan.releases.filter((r) => r.type !== 'none'); // private packages are never versioned
  const width = Math.max(0, ...versioned.map((r) => r.name.length));
  const packages = versioned.flatMap((r) => [
    `  ${r.name.padEnd(width)}  ${r.oldVersion} → ${r.newVersion}  ${r.type}, from ${r.changesets.length} changeset(s)${r.changesets.length > 0 ? ':' : ''}`,
    ...changesetLines(r.changesets),
  ]);
  const files = plan.writes
    .filter((line) => !isChangeset(line))
    .map((line) => `  ${(KINDS[line.slice(0, 2).trim()] ?? line.slice(0, 2)).padEnd(7)} ${line.slice(3)}`);
  return [
    `release: --dry-run: ${versioned.length} package(s) would be versioned (package, version now → next, bump, the changesets behind it):`,
    ...packages,
    `release: --dry-run: it would write ${files.length} file(s) and delete ${plan.writes.filter(isChangeset).length} changeset(s):`,
    ...files,
    `release: --dry-run: then \`changeset publish\` would publish ${versioned.map((r) => `${r.name}@${r.newVersion}`).join(', ')} to ${registry}`,
    'release: --dry-run: worked out in a scratch copy, now removed: this tree is as it was, nothing was versioned or published',
  ].join('\n');
}
