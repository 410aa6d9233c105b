// The spec's generated schemas are valid JSON Schema 2020-12. The validators skip this check at run time (it costs
// every process ~60 ms at its start), so it is made here, once, for the schemas every validator is compiled from.
import { Ajv2020, type AnySchema } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { specSchemas } from '../src/index.ts';
import { SPEC_AJV_OPTIONS } from '../src/validate.ts';

/** The meta-schema's complaints about `schema` (empty when it is valid JSON Schema 2020-12). */
function metaSchemaProblems(schema: AnySchema): string[] {
  const ajv = new Ajv2020(SPEC_AJV_OPTIONS);
  return ajv.validateSchema(schema) ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
}

describe("the spec's schemas against JSON Schema's meta-schema", () => {
  it('every generated schema is valid JSON Schema 2020-12', () => {
    expect(metaSchemaProblems(specSchemas as AnySchema)).toEqual([]);
  });

  it('a schema with a mistyped type is caught', () => {
    const broken = structuredClone(specSchemas) as { $defs: Record<string, { type?: unknown }> };
    const [name] = Object.keys(broken.$defs);
    broken.$defs[name!]!.type = 'objet';
    expect(metaSchemaProblems(broken as AnySchema).length).toBeGreaterThan(0);
  });
});
