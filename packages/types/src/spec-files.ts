// The spec's files as @gw/types ships them, by path: for tools that read the spec itself (`gw spec drift --patch`) in a
// project where the gw repository is not at hand. Apart from the main entry, which stays free of Node's modules.
import { createRequire } from 'node:module';
import { GW_ERROR_CODES, GwError } from './errors.ts';

// Resolved through the package's own `exports`, so the path is right wherever @gw/types is installed (or bundled from).
const require = createRequire(import.meta.url);

function shipped(file: 'openapi.yaml' | 'UNKNOWNS.md'): string {
  try {
    return require.resolve(`@gw/types/${file}`);
  } catch (error) {
    throw new GwError(
      GW_ERROR_CODES.config,
      `@gw/types has no ${file}: in the gw repository it is written by \`pnpm build\`; an installed @gw/types always has it`,
      { file },
      { cause: error },
    );
  }
}

/** The absolute path of the OpenAPI document (`openapi.yaml`) this version of @gw/types was generated from. */
export function specPath(): string {
  return shipped('openapi.yaml');
}

/** The absolute path of the shipped `UNKNOWNS.md`: every point the interface leaves open and the toolkit's policy. */
export function unknownsPath(): string {
  return shipped('UNKNOWNS.md');
}
