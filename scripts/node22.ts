// Node 22, the oldest Node the published packages' `engines` accept, from the npm registry's `node` package, installed
// once into .cache/node22 so the test runs prove the claim on it rather than assume it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { plainNpmEnv } from './plain-npm-env.ts';

export const NODE22_VERSION = '22.23.3';
export const root = join(import.meta.dirname, '..');
/** The Node 22 binary, whether or not it is installed yet. */
export const node22 = join(root, '.cache/node22/node_modules/node/bin/node');

/** Installs Node 22 into .cache/node22 unless it is there; returns the binary's path. */
export function ensureNode22(): string {
  if (!existsSync(node22)) {
    console.log(`node22: installing node@${NODE22_VERSION} from the npm registry into .cache/node22`);
    const prefix = join(root, '.cache/node22');
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `node@${NODE22_VERSION}`], {
      stdio: 'inherit',
      env: plainNpmEnv(),
      timeout: 300_000,
    });
  }
  return node22;
}
