// A team's project outside the workspace: installs @gw packages from a registry with plain npm and type-checks a file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The packages a consumer depends on, all at `^1`. */
export const CONSUMED = ['@gw/batch', '@gw/cli', '@gw/client', '@gw/sandbox', '@gw/signer-interface', '@gw/types', '@gw/xml-codec'];

/** Writes package.json (`^1` of each package), .npmrc (the registry), and a tsconfig for its TypeScript files (`uses-field.ts`). */
export function writeConsumerProject(dir: string, registryUrl: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: 'release-consumer', private: true, type: 'module', dependencies: Object.fromEntries(CONSUMED.map((name) => [name, '^1'])) },
      null,
      2,
    ),
  );
  writeFileSync(join(dir, '.npmrc'), `registry=${registryUrl}\nfund=false\naudit=false\n`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2023',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        types: [],
      },
      include: ['*.ts'],
    }),
  );
  // Compiles only once @gw/types has the capture result field the spec change adds.
  writeFileSync(
    join(dir, 'uses-field.ts'),
    "import type { CaptureOrderResult } from '@gw/types';\n\nexport const settles = (result: CaptureOrderResult): string | undefined => result.settlement_date;\n",
  );
}
