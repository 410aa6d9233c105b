// Copies spec/v1/openapi.yaml, the one source, into the package as openapi.yaml (shipped, exported by path, never
// committed), after checking it is the text the generated files came from. Run by `build`, after tsc.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { specManifest } from '../src/generated/manifest.gen.ts';

const root = join(import.meta.dirname, '..');
const source = join(root, '../..', specManifest.spec);

/** Writes openapi.yaml beside package.json; throws when the spec changed since `pnpm generate`. */
export function shipSpec(): void {
  const text = readFileSync(source, 'utf8');
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (sha256 !== specManifest.specSha256)
    throw new Error(
      `${specManifest.spec} is not the text src/generated came from (sha256 ${sha256}, generated from ${specManifest.specSha256}): run pnpm generate, then build`,
    );
  writeFileSync(join(root, 'openapi.yaml'), text);
}

shipSpec();
