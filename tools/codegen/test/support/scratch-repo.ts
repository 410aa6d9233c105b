// A scratch copy of the repository with only what generating, type-checking and running the packages needs: the spec,
// every package's sources and manifests, and node_modules shared with the real checkout through symlinks.
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '../../../..');

const PACKAGE_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'UNKNOWNS.md'];

/** Copies spec/v1, tsconfig.base.json and every package's src (no tests, no dist) into `into`; links node_modules. */
export function copyRepoForSpecChange(into: string): string[] {
  cpSync(join(repoRoot, 'spec/v1'), join(into, 'spec/v1'), { recursive: true });
  cpSync(join(repoRoot, 'tsconfig.base.json'), join(into, 'tsconfig.base.json'));
  cpSync(join(repoRoot, 'package.json'), join(into, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(into, 'node_modules'), 'dir');
  const packages = readdirSync(join(repoRoot, 'packages')).filter((name) => existsSync(join(repoRoot, 'packages', name, 'package.json')));
  for (const name of packages) {
    const from = join(repoRoot, 'packages', name);
    const to = join(into, 'packages', name);
    mkdirSync(to, { recursive: true });
    cpSync(join(from, 'src'), join(to, 'src'), { recursive: true });
    for (const file of PACKAGE_FILES) if (existsSync(join(from, file))) cpSync(join(from, file), join(to, file));
    // pnpm's links are relative: `@gw/x -> ../../../x` lands on the scratch package, the rest on the linked store.
    if (existsSync(join(from, 'node_modules'))) {
      cpSync(join(from, 'node_modules'), join(to, 'node_modules'), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => !/[/\\]\.vite/.test(source),
      });
    }
  }
  return packages;
}

/** A tsconfig at the scratch root that type-checks every package's src (and `extra` files) as one program. */
export function writeWorkspaceTsconfig(into: string, extra: string[] = []): string {
  const path = join(into, 'tsconfig.workspace.json');
  writeFileSync(
    path,
    JSON.stringify(
      { extends: './tsconfig.base.json', compilerOptions: { noEmit: true, allowImportingTsExtensions: true }, include: ['packages/*/src/**/*.ts', ...extra] },
      null,
      2,
    ),
  );
  return path;
}
