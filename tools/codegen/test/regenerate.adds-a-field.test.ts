import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate, type GeneratedFiles } from '../src/generate.ts';

const specPath = join(import.meta.dirname, '../../../spec/v1/openapi.yaml');
const TYPES = 'packages/types/src/generated/types.gen.ts';
const TYPE_SCHEMAS = 'packages/types/src/generated/type-schemas.gen.ts';
const SPEC_SCHEMAS = 'packages/types/src/generated/spec-schemas.gen.ts';
const OPERATIONS = 'packages/types/src/generated/operations.gen.ts';
const METHODS = 'packages/client/src/generated/methods.gen.ts';

function moduleJson(files: GeneratedFiles, file: string, name: string): any {
  const text = files.get(file)!;
  const start = text.indexOf('{', text.indexOf(`export const ${name}`));
  // JSON.stringify(value, null, 2) closes the top-level object with the only `}` at the start of a line.
  const end = text.indexOf('\n}', start);
  return JSON.parse(text.slice(start, end + 2));
}

describe('editing the spec and regenerating', () => {
  let original: GeneratedFiles;
  let edited: GeneratedFiles;

  beforeAll(async () => {
    const doc = parse(readFileSync(specPath, 'utf8'));
    const capture = doc.components.schemas.CaptureOrder;
    capture.properties.merchant_reference = { type: 'string', pattern: '^MR-\\d{4}$', description: 'A field added by the regeneration test.' };
    doc.paths['/v1/capture'].post['x-gw-batch'].limit = 40;
    doc.components.schemas.CaptureRequest.properties.capture_orders.maxItems = 40;
    const dir = mkdtempSync(join(tmpdir(), 'gw-regen-'));
    const editedPath = join(dir, 'openapi.yaml');
    // The examples beside it, as in the repository: the sandbox's answer examples are built from them.
    cpSync(join(specPath, '../examples'), join(dir, 'examples'), { recursive: true });
    writeFileSync(editedPath, stringify(doc));
    [original, edited] = await Promise.all([generate(specPath), generate(editedPath)]);
  }, 120_000);

  it('puts the new field into the TypeScript types', () => {
    expect(original.get(TYPES)).not.toContain('merchant_reference');
    expect(edited.get(TYPES)).toMatch(/merchant_reference\?: string;/);
    expect(edited.get(TYPES)).toContain('@pattern ^MR-\\d{4}$');
  });

  it('puts the new field, with its pattern, into both kinds of JSON Schema', () => {
    const typeSchemas = moduleJson(edited, TYPE_SCHEMAS, 'typeSchemas');
    expect(typeSchemas.definitions.CaptureOrder.properties.merchant_reference).toMatchObject({ type: 'string', pattern: '^MR-\\d{4}$' });
    const specSchemas = moduleJson(edited, SPEC_SCHEMAS, 'specSchemas');
    expect(specSchemas.$defs.CaptureOrder.properties.merchant_reference).toMatchObject({ type: 'string', pattern: '^MR-\\d{4}$' });
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile({ ...typeSchemas, $ref: '#/definitions/CaptureOrder' });
    expect(validate({ merchant_reference: 'MR-0001' })).toBe(true);
    expect(validate({ merchant_reference: 'nope' })).toBe(false);
  });

  it('carries a changed batch limit into the operation table', () => {
    expect(original.get(OPERATIONS)).toMatch(/"limit": 50/);
    const table = moduleJson(edited, OPERATIONS, 'operations');
    expect(table.capture.batch.limit).toBe(40);
    expect(table.cancel.batch.limit).toBe(50);
  });

  it('carries the changed limit into the doc comment of the generated client method', () => {
    expect(original.get(METHODS)).toContain('Up to 50 orders in `capture_orders`');
    expect(edited.get(METHODS)).toContain('Up to 40 orders in `capture_orders`');
  });

  it("changes the manifest's values, never its type: the API report of @gw/types shows no change for them", () => {
    const manifest = 'packages/types/src/generated/manifest.gen.ts';
    const declaration = (text: string) => /export const specManifest[^=]*=/.exec(text)?.[0];
    expect(declaration(edited.get(manifest)!)).toBe('export const specManifest: SpecManifest =');
    expect(declaration(edited.get(manifest)!)).toBe(declaration(original.get(manifest)!));
    expect(edited.get(manifest)).not.toContain('as const');
    expect(moduleJson(edited, manifest, 'specManifest').specSha256).not.toBe(moduleJson(original, manifest, 'specManifest').specSha256);
  });

  it('changes nothing else of the operation table or the client methods', () => {
    const changed = [...edited.keys()].filter((k) => edited.get(k) !== original.get(k)).sort();
    expect(changed).toEqual([METHODS, 'packages/types/src/generated/manifest.gen.ts', OPERATIONS, SPEC_SCHEMAS, TYPE_SCHEMAS, TYPES]);
  });
});
