import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** An OpenAPI document as plain JSON values. */
export type SpecDocument = Record<string, any>;

/** The spec as read from disk, with the hash that names the exact text generated from. */
export interface LoadedSpec {
  path: string;
  text: string;
  sha256: string;
  doc: SpecDocument;
}

/** Reads and parses the OpenAPI YAML document. */
export function loadSpec(path: string): LoadedSpec {
  const text = readFileSync(path, 'utf8');
  const doc = parse(text, { maxAliasCount: 0 }) as SpecDocument;
  if (!doc || typeof doc !== 'object' || !String(doc.openapi ?? '').startsWith('3.1')) {
    throw new Error(`${path}: not an OpenAPI 3.1 document`);
  }
  return { path, text, sha256: createHash('sha256').update(text).digest('hex'), doc };
}

/** Deep copy of a JSON value. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
