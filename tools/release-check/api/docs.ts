#!/usr/bin/env node
// `pnpm run docs` (pnpm's own `docs` command shadows `pnpm docs`): the packages' API reference as HTML (one page per
// package, every export with its doc comment and declaration, from the built declarations) into reference-docs/
// (git-ignored); the root script adds the spec's page (Redocly build-docs). api-documenter and typedoc are not installed; this reads the same declarations as the reports.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { reportedPackages } from './main.ts';
import { buildReference, type ReferenceEntry } from './report.ts';

const escape = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const fileOf = (name: string): string => `${name.split('/').pop()}.html`;
const STYLE = 'body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f5f5f5;padding:.75rem;overflow:auto}h2{margin-top:2rem;border-top:1px solid #ddd;padding-top:1rem}nav a{margin-right:.75rem}';

function page(title: string, nav: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head>\n<body><nav>${nav}</nav><h1>${escape(title)}</h1>\n${body}\n</body></html>\n`;
}

function entryHtml(entry: ReferenceEntry): string {
  const doc = entry.doc ? `<p>${escape(entry.doc).replaceAll('\n\n', '</p><p>')}</p>` : '';
  return `<h2 id="${escape(entry.name)}">${escape(entry.name)}</h2>\n${doc}\n${entry.declarations.map((d) => `<pre><code>${escape(d)}</code></pre>`).join('\n')}`;
}

/** Writes reference-docs/<package>.html for every package and an index linking them and the spec; returns the files. */
export function writeReference(root: string, out: string): string[] {
  const packages = reportedPackages(root);
  const reference = buildReference(packages);
  mkdirSync(out, { recursive: true });
  const nav = ['<a href="index.html">index</a>', '<a href="spec.html">spec</a>', ...packages.map((p) => `<a href="${fileOf(p.name)}">${escape(p.name)}</a>`)].join('');
  const written: string[] = [];
  for (const pkg of packages) {
    const entries = reference.get(pkg.name)!;
    const description = (JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { description?: string }).description ?? '';
    const toc = `<p>${escape(description)}</p><ul>${entries.map((e) => `<li><a href="#${escape(e.name)}">${escape(e.name)}</a></li>`).join('')}</ul>`;
    writeFileSync(join(out, fileOf(pkg.name)), page(`${pkg.name} API reference`, nav, `${toc}\n${entries.map(entryHtml).join('\n')}`));
    written.push(join(out, fileOf(pkg.name)));
  }
  const list = packages.map((p) => `<li><a href="${fileOf(p.name)}">${escape(p.name)}</a> (${reference.get(p.name)!.length} exports)</li>`).join('');
  writeFileSync(join(out, 'index.html'), page('gw reference', nav, `<ul><li><a href="spec.html">The /v1 interface (spec/v1/openapi.yaml)</a></li>${list}</ul>`));
  written.push(join(out, 'index.html'));
  return written;
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { root: { type: 'string' }, out: { type: 'string' } } });
  const root = resolve(values.root ?? join(import.meta.dirname, '../../..'));
  const written = writeReference(root, resolve(values.out ?? join(root, 'reference-docs')));
  console.log(`docs: ${written.length} API reference pages in ${join(values.out ?? 'reference-docs')}`);
}
