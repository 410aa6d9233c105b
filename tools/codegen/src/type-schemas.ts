import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as TJS from 'typescript-json-schema';

// `string & {}` is the open-union idiom; typescript-json-schema renders it as an unsatisfiable
// allOf [object, string]. It means "any string", so it is written back as that.
function isOpenStringIntersection(node: any): boolean {
  return (
    Array.isArray(node?.allOf) &&
    node.allOf.length === 2 &&
    node.allOf.some((s: any) => s?.type === 'string' && Object.keys(s).length === 1) &&
    node.allOf.some(
      (s: any) => s?.type === 'object' && Object.keys(s.properties ?? {}).length === 0 && Object.keys(s).every((k) => k === 'type' || k === 'properties'),
    )
  );
}

function normalise(node: any): any {
  if (Array.isArray(node)) return node.map(normalise);
  if (!node || typeof node !== 'object') return node;
  if (isOpenStringIntersection(node)) return { type: 'string' };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = normalise(value);
  return out;
}

/** JSON Schemas (draft-07) derived by typescript-json-schema from the generated TypeScript types. */
export function buildTypeSchemas(typesSource: string, symbols: string[]): Record<string, unknown> {
  const work = mkdtempSync(join(tmpdir(), 'gw-tjs-'));
  try {
    const file = join(work, 'types.gen.ts');
    writeFileSync(file, typesSource);
    const program = TJS.getProgramFromFiles([file], { strict: true, skipLibCheck: true, noEmit: true });
    const generator = TJS.buildGenerator(program, { required: true, ref: true, aliasRef: false, topRef: false, strictNullChecks: true });
    if (!generator) throw new Error('typescript-json-schema could not read the generated types');
    const known = new Set(generator.getUserSymbols());
    const missing = symbols.filter((s) => !known.has(s));
    if (missing.length > 0) throw new Error(`generated types lack schemas: ${missing.join(', ')}`);
    return normalise(generator.getSchemaForSymbols(symbols, true, true));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
