// A scratch copy of the repository to release from: its files (tracked and new, not ignored), the built dist folders,
// and node_modules linked to the real checkout's (pnpm's relative links land on the scratch packages).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/**
 * Copies `repoRoot` into `into` as described above and makes it a git repository (changesets tags releases);
 * `withoutPendingChangesets` makes the copy a release point: it leaves out `.changeset/*.md` (the copy starts from the
 * committed versions) and takes each package's API report as its released one (`api/*.released.api.md`), since what
 * the pending changesets recorded is now part of the line being released.
 */
export function copyRepoForRelease(repoRoot: string, into: string, options: { withoutPendingChangesets?: boolean } = {}): void {
  const pendingChangeset = (file: string) => options.withoutPendingChangesets === true && /^\.changeset\/(?!README\.md$)[^/]+\.md$/.test(file);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file && existsSync(join(repoRoot, file)) && !pendingChangeset(file));
  for (const file of files) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    copyUnlessGone(join(repoRoot, file), join(into, file));
  }
  if (options.withoutPendingChangesets === true) {
    for (const file of files.filter((f) => /^packages\/[^/]+\/api\/[^/]+(?<!\.released)\.api\.md$/.test(f)))
      cpSync(join(into, file), join(into, file.replace(/\.api\.md$/, '.released.api.md')));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(into, 'node_modules'), 'dir');
  for (const dir of workspaceDirs(repoRoot)) {
    const from = join(repoRoot, dir);
    const to = join(into, dir);
    if (!existsSync(to)) continue;
    if (existsSync(join(from, 'dist'))) cpSync(join(from, 'dist'), join(to, 'dist'), { recursive: true });
    if (existsSync(join(from, 'node_modules'))) {
      cpSync(join(from, 'node_modules'), join(to, 'node_modules'), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => !/[/\\]\.(vite|cache)/.test(source),
      });
    }
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: into, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=gw release check', '-c', 'user.email=release-check@gw.invalid', 'add', '-A');
  git('-c', 'user.name=gw release check', '-c', 'user.email=release-check@gw.invalid', 'commit', '-qm', 'scratch copy');
}

/** The workspace's package folders, relative to `repoRoot`, from pnpm-workspace.yaml (`group/*` patterns and plain folders). */
function workspaceDirs(repoRoot: string): string[] {
  const patterns = (parse(readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')) as { packages?: string[] }).packages ?? [];
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const group = pattern.slice(0, -2);
    return existsSync(join(repoRoot, group)) ? readdirSync(join(repoRoot, group)).map((name) => `${group}/${name}`) : [];
  });
}

/** Copies a file, unless it went away since it was listed: other packages' tests, run beside this one in `test:all`,
 * create and remove scratch files in the checkout. */
function copyUnlessGone(from: string, to: string): void {
  try {
    cpSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
