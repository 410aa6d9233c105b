#!/usr/bin/env node
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { missingExamples, writeMissingExamples } from './example-files.ts';
import { generate } from './generate.ts';
import { diffGenerated, writeGenerated } from './write.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    spec: { type: 'string', default: resolve(repoRoot, 'spec/v1/openapi.yaml') },
    out: { type: 'string', default: repoRoot },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log('usage: pnpm generate [--check] [--spec FILE] [--out DIR]\n  --check  regenerate in memory and exit 1 if any generated file differs from disk');
  process.exit(0);
}

const started = performance.now();
const specPath = resolve(values.spec);
const shown = (path: string): string => relative(process.cwd(), path) || path;
if (values.check) {
  const files = await generate(specPath);
  const { changed, missing, stale } = diffGenerated(resolve(values.out), files);
  const examples = missingExamples(specPath).map((example) => shown(example.path));
  const drift = [
    ...changed.map((f) => `changed: ${f}`),
    ...missing.map((f) => `missing: ${f}`),
    ...stale.map((f) => `stale:   ${f}`),
    ...examples.map((f) => `missing example: ${f}`),
  ];
  if (drift.length > 0) {
    console.error(
      `generate --check: ${drift.length} generated file(s) drifted from spec/v1/openapi.yaml:\n  ${drift.join('\n  ')}\nrun \`pnpm generate\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log(`generate --check: ${files.size} generated files match the spec (${Math.round(performance.now() - started)} ms)`);
} else {
  // The examples first: a missing one, once written, is what the sandbox's answer examples are built from.
  for (const path of writeMissingExamples(specPath))
    console.log(`generate: wrote ${shown(path)} from the spec's examples and schema: refine it (a person's values read better than the schema's)`);
  const files = await generate(specPath);
  const written = writeGenerated(resolve(values.out), files);
  console.log(`generate: ${files.size} files, ${written} written or removed (${Math.round(performance.now() - started)} ms)`);
}
