#!/usr/bin/env node
// `pnpm run docs` (pnpm's own `docs` command shadows `pnpm docs`): the reference in reference-docs/ (git-ignored).
// index.html is the /v1 interface (Redocly build-docs of the spec, its scripts inlined, with a bar linking to the
// packages' reference); api/ is the packages' TypeScript reference (TypeDoc, from the built declarations and their
// doc comments, searchable, each package's README as its front page).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Application, LogLevel, type TypeDocOptions } from 'typedoc';

/** The packages' reference: what TypeDoc documents and how. */
export function typedocOptions(root: string, out: string): Partial<TypeDocOptions> {
  return {
    name: 'gw packages',
    entryPoints: [join(root, 'packages/*')],
    entryPointStrategy: 'packages',
    // Each package's public entry point as built (the declarations its API report reads), resolved as a consumer does.
    // A type an export uses without exporting it is reported by API Extractor (ae-forgotten-export); other warnings
    // (a broken {@link}, an unknown tag) fail the build.
    packageOptions: {
      entryPoints: ['dist/index.d.ts'],
      tsconfig: join(import.meta.dirname, 'tsconfig.docs.json'),
      validation: { notExported: false, invalidLink: true, rewrittenLink: true, unusedMergeModuleWith: true },
    },
    out,
    readme: 'none',
    disableSources: true,
    searchInComments: true,
    navigationLinks: { 'The /v1 interface': '../index.html' },
    treatWarningsAsErrors: true,
    logLevel: LogLevel.Warn,
  };
}

/** Writes the packages' reference into `out` with TypeDoc; returns the names of the packages documented. */
export async function writeApiReference(root: string, out: string): Promise<string[]> {
  const app = await Application.bootstrapWithPlugins(typedocOptions(root, out));
  const project = await app.convert();
  if (!project) throw new Error(`docs: TypeDoc could not convert the packages (see its messages above)`);
  await app.generateDocs(project, out);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) throw new Error('docs: TypeDoc reported problems (see its messages above)');
  return (project.children ?? []).map((child) => child.name);
}

/** Writes the /v1 interface page (Redocly build-docs, scripts inlined, no telemetry) as `out/index.html`. */
export function writeSpecPage(root: string, out: string): string {
  const page = join(out, 'index.html');
  const result = spawnSync(
    join(root, 'node_modules/.bin/redocly'),
    ['build-docs', 'spec/v1/openapi.yaml', '--inlineBundle', '--template', relative(root, join(import.meta.dirname, 'spec-page.hbs')), '--output', page],
    { cwd: root, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
  );
  if (result.status !== 0 || !existsSync(page)) throw new Error(`docs: redocly build-docs failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return page;
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { root: { type: 'string' }, out: { type: 'string' } } });
  const root = resolve(values.root ?? join(import.meta.dirname, '../../..'));
  const out = resolve(values.out ?? join(root, 'reference-docs'));
  rmSync(out, { recursive: true, force: true });
  const packages = await writeApiReference(root, join(out, 'api'));
  const page = writeSpecPage(root, out);
  console.log(
    `docs: ${relative(process.cwd(), page)} (the /v1 interface) links to ${relative(process.cwd(), join(out, 'api/index.html'))} (${packages.length} packages: ${packages.join(', ')})`,
  );
}
