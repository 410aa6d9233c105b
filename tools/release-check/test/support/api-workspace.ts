// A tiny workspace of built packages in one fixed group, as the repository has: real files for API Extractor to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `packages/<name>` as a built package `@gw/<name>` 1.0.0 whose entry point declares `declarations`. */
export function writePackage(root: string, name: string, declarations: string): void {
  const dir = join(root, 'packages', name);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `@gw/${name}`, version: '1.0.0', type: 'module', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }),
  );
  writeFileSync(join(dir, 'dist/index.d.ts'), declarations);
}

/** Writes `.changeset/<file>` giving each package its bump. */
export function changeset(root: string, file: string, bumps: Record<string, string>): void {
  writeFileSync(
    join(root, '.changeset', file),
    `---\n${Object.entries(bumps)
      .map(([n, b]) => `'${n}': ${b}`)
      .join('\n')}\n---\nA change.\n`,
  );
}

/** Makes `root` a workspace with `.changeset/config.json` putting every `@gw/*` package in one fixed group. */
export function writeWorkspace(root: string): void {
  mkdirSync(join(root, '.changeset'), { recursive: true });
  writeFileSync(join(root, '.changeset/config.json'), JSON.stringify({ fixed: [['@gw/*']] }));
}

/** Package `a`'s first released API: an interface with two optional fields and a function. */
export const V1 = 'export interface Order {\n  order_no?: string;\n  amount?: string;\n}\nexport declare function send(order: Order): Promise<void>;\n';
