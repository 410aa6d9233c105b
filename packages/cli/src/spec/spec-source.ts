import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { specPath } from '@gw/types/spec';

/** The spec in the gw repository, relative to the repository's root. */
const REPO_SPEC = join('spec', 'v1', 'openapi.yaml');

/** The spec a command reads, and where it came from: `--spec`, the gw repository, or the copy @gw/types ships. */
export interface SpecSource {
  /** Absolute path. */
  readonly path: string;
  /** As a person reads it: the path as given, relative to the working directory, or the package and version. */
  readonly shown: string;
  readonly from: 'flag' | 'repository' | 'package';
}

/** The nearest `spec/v1/openapi.yaml` at or above `cwd`: the gw repository's spec, when run inside it. */
function repositorySpec(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, REPO_SPEC))) return join(dir, REPO_SPEC);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The spec to read: an explicit `--spec` always; else the repository's `spec/v1/openapi.yaml` when run inside the gw
 * repository (at or below its root); else the one the installed @gw/types was generated from.
 */
export function specSource(cwd: string, given: string | undefined): SpecSource {
  if (given !== undefined) return { path: resolve(cwd, given), shown: given, from: 'flag' };
  const inRepository = repositorySpec(cwd);
  if (inRepository) return { path: inRepository, shown: relative(cwd, inRepository), from: 'repository' };
  const shipped = specPath();
  const { version } = JSON.parse(readFileSync(join(dirname(shipped), 'package.json'), 'utf8')) as { version: string };
  return { path: shipped, shown: `the spec of @gw/types ${version} (${shipped})`, from: 'package' };
}
