// Publishes the packed packages to a registry at a version of our choosing: each tarball's package.json gets the
// version, and its @gw/* dependencies that version too (as `changeset publish` would after `changeset version`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { plainNpmEnv } from '../pack.ts';
import { run } from './run.ts';
import type { LocalRegistry } from './verdaccio.ts';

/** Unpacks each tarball under `work`, sets `version` (and the @gw/* dependencies to it) and publishes it to `registry`. */
export async function publishPackedAt(registry: LocalRegistry, tarballs: readonly string[], version: string, work: string): Promise<string[]> {
  const published: string[] = [];
  for (const tarball of tarballs) {
    const dir = join(work, version, basename(tarball, '.tgz'));
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; dependencies?: Record<string, string> };
    manifest.version = version;
    for (const name of Object.keys(manifest.dependencies ?? {})) if (name.startsWith('@gw/')) manifest.dependencies![name] = version;
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    writeFileSync(join(dir, '.npmrc'), registry.npmrc);
    await run('npm', ['publish', '--ignore-scripts', '--no-audit', '--loglevel=error'], {
      cwd: dir,
      env: plainNpmEnv({ node: 'workspace' }),
      timeoutMs: 120_000,
    });
    published.push(`${manifest.name}@${version}`);
  }
  return published;
}
