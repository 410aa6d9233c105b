import { clone, type SpecDocument } from './spec.ts';

// typescript-json-schema reads these JSDoc tags back into constraints; hey-api copies a schema's
// description into the JSDoc of the type it emits. Writing the constraints into the descriptions of a
// copy of the spec is how they survive the trip spec -> TypeScript -> JSON Schema.
const TAGGED_KEYWORDS = ['pattern', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minimum', 'maximum'] as const;

function annotateSchema(schema: any): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    schema.forEach(annotateSchema);
    return;
  }
  const tags: string[] = [];
  for (const keyword of TAGGED_KEYWORDS) {
    if (schema[keyword] !== undefined) tags.push(`@${keyword} ${schema[keyword]}`);
  }
  if (schema.type === 'integer') tags.push('@TJS-type integer');
  if (Array.isArray(schema['x-gw-known-values'])) {
    tags.push(`Known values (open set): ${schema['x-gw-known-values'].map((v: string) => `\`${v}\``).join(', ')}.`);
  }
  if (tags.length > 0 && !schema.$ref) {
    schema.description = [schema.description, ...tags].filter(Boolean).join('\n');
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
    if (value && typeof value === 'object') annotateSchema(value);
  }
}

/** A copy of the spec whose schema descriptions also carry the constraints as JSDoc tags. */
export function annotateForTypeDocs(doc: SpecDocument): SpecDocument {
  const copy = clone(doc);
  annotateSchema(copy.components?.schemas);
  for (const pathItem of Object.values<any>(copy.paths ?? {})) {
    for (const operation of Object.values<any>(pathItem ?? {})) {
      annotateSchema(operation?.requestBody);
      annotateSchema(operation?.responses);
    }
  }
  return copy;
}
