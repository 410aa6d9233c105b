import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { specPath } from '@gw/types/spec';

/** The spec in the gw repository, relative to the repository's root. */
const REPO_SPEC = join('spec', 'v1', 'openapi.yaml');
/** The gw repository's root package.json names it so; a team's own `spec/v1/openapi.yaml` above is not gw's. */
const REPO_NAME = 'gw-monorepo';

/** The spec a command reads, and where it came from: `--spec`, the gw repository, or the copy @gw/types ships. */
export interface SpecSource {
  /** Absolute path. */
  readonly path: string;
  /** As a person reads it: the path as given, relative to the working directory, or the package and version. */
  readonly shown: string;
  readonly from: 'flag' | 'repository' | 'package';
}

function isGwRepository(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === REPO_NAME;
  } catch {
    return false;
  }
}

/** `spec/v1/openapi.yaml` in `cwd` (as always), else in the gw repository's root at or above it. */
function repositorySpec(cwd: string): string | undefined {
  if (existsSync(join(cwd, REPO_SPEC))) return join(cwd, REPO_SPEC);
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (isGwRepository(dir) && existsSync(join(dir, REPO_SPEC))) return join(dir, REPO_SPEC);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The spec to read: an explicit `--spec` always; else `spec/v1/openapi.yaml` in the working directory or, below the gw
 * repository's root, the repository's; else the one the installed @gw/types was generated from.
 */
export function specSource(cwd: string, given: string | undefined): SpecSource {
  if (given !== undefined) return { path: resolve(cwd, given), shown: given, from: 'flag' };
  const inRepository = repositorySpec(resolve(cwd));
  if (inRepository) return { path: inRepository, shown: relative(cwd, inRepository), from: 'repository' };
  const shipped = specPath();
  const { version } = JSON.parse(readFileSync(join(dirname(shipped), 'package.json'), 'utf8')) as { version: string };
  return { path: shipped, shown: `the spec of @gw/types ${version} (${shipped})`, from: 'package' };
}
