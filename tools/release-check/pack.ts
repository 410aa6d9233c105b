// Packs every publishable package with pnpm (workspace: ranges become versions) into a folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
export { plainNpmEnv } from '../../scripts/plain-npm-env.ts';

export const repoRoot = join(import.meta.dirname, '../..');

/** The publishable packages: packages/* that are not private. */
export function publishable(): { name: string; dir: string }[] {
  return readdirSync(join(repoRoot, 'packages'))
    .map((dir) => join(repoRoot, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; private?: boolean } }))
    .filter(({ pkg }) => !pkg.private)
    .map(({ dir, pkg }) => ({ name: pkg.name, dir }));
}

/** Runs pnpm (the one running this script when there is one, else from PATH). */
export function pnpm(args: string[], cwd: string): string {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(execPath)
    ? execFileSync(process.execPath, [execPath, ...args], { cwd, encoding: 'utf8' })
    : execFileSync('pnpm', args, { cwd, encoding: 'utf8' });
}

/** Packs every publishable package (they must be built) into `destination`; returns the tarball paths. */
export function packAll(destination: string): string[] {
  mkdirSync(destination, { recursive: true });
  for (const { dir } of publishable()) pnpm(['pack', '--pack-destination', destination], dir);
  return readdirSync(destination)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(destination, f))
    .sort();
}

if (import.meta.filename === process.argv[1]) {
  const out = join(repoRoot, '.release');
  for (const file of packAll(out)) console.log(file);
}
