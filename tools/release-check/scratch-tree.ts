// A throwaway copy of the working tree for `pnpm release --dry-run` to version in: the files git would see (tracked and
// new, not ignored, as they are now, committed or not), each workspace folder's node_modules linked to the tree's own
// (changesets' CLI and the changelog module run from them), committed in a git repository of its own (changesets reads
// the commit that added each changeset). Versioning it shows what a release would write, and the tree is not touched.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_USER = ['-c', 'user.name=gw release dry run', '-c', 'user.email=release-dry-run@gw.invalid'];

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** The files of `root` git would see: tracked ones still present and new ones it does not ignore (node_modules are linked, not copied). */
function treeFiles(root: string): string[] {
  return git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
    .split('\0')
    .filter((file) => file !== '' && !file.split('/').includes('node_modules') && existsSync(join(root, file)));
}

// A file as it is; a symbolic link as a link to the same target.
function copyEntry(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else copyFileSync(from, to);
}

/** Copies `root` into a new temporary folder as described above; returns the folder. Remove it with `removeScratchTree`. */
export function copyScratchTree(root: string): string {
  const into = mkdtempSync(join(tmpdir(), 'gw-release-dry-run-'));
  try {
    fillScratchTree(root, into);
  } catch (error) {
    removeScratchTree(into);
    throw error;
  }
  return into;
}

function fillScratchTree(root: string, into: string): void {
  const files = treeFiles(root);
  for (const file of files) copyEntry(join(root, file), join(into, file));
  const folders = new Set(['.', ...files.filter((f) => f.endsWith('/package.json')).map((f) => dirname(f))]);
  for (const folder of folders) {
    const modules = join(root, folder, 'node_modules');
    if (existsSync(modules) && existsSync(join(into, folder))) symlinkSync(modules, join(into, folder, 'node_modules'), 'dir');
  }
  git(into, ['init', '-q', '-b', 'main']);
  git(into, [...GIT_USER, 'add', '-A']);
  git(into, [...GIT_USER, 'commit', '-q', '--no-verify', '-m', 'the tree as it was']);
}

/** What changed in the scratch copy since it was made: `git status --porcelain` lines (`M`, `D`, `??` and a path). */
export function scratchChanges(into: string): string[] {
  return git(into, ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter((line) => line !== '');
}

/** Removes a scratch copy (its node_modules are links: the tree's own are left alone). */
export function removeScratchTree(into: string): void {
  rmSync(into, { recursive: true, force: true });
}
