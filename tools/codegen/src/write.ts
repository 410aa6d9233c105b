import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { GENERATED_DIRS, type GeneratedFiles } from './generate.ts';

function listFiles(root: string, dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) listFiles(root, full, out);
    else out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

/** The differences between generated files and what is on disk under `outRoot`. */
export function diffGenerated(outRoot: string, files: GeneratedFiles): { changed: string[]; missing: string[]; stale: string[] } {
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [rel, text] of files) {
    const full = join(outRoot, rel);
    if (!existsSync(full)) missing.push(rel);
    else if (readFileSync(full, 'utf8') !== text) changed.push(rel);
  }
  const stale = GENERATED_DIRS.flatMap((d) => listFiles(outRoot, join(outRoot, d))).filter((rel) => !files.has(rel));
  return { changed, missing, stale: stale.sort() };
}

/** Writes the generated files under `outRoot` and removes generated files the spec no longer produces. */
export function writeGenerated(outRoot: string, files: GeneratedFiles): number {
  const { changed, missing, stale } = diffGenerated(outRoot, files);
  for (const rel of [...changed, ...missing]) {
    const full = join(outRoot, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, files.get(rel)!);
  }
  for (const rel of stale) rmSync(join(outRoot, rel));
  return changed.length + missing.length + stale.length;
}
