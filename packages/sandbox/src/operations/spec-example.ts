// UNKNOWNS U53: the answer of an operation the sandbox has no stateful handler for, built from the spec alone.
import { secretFields, specSchemas, type OperationSpec } from '@gw/types';
import type { WireRecord } from '../context.ts';

type Schema = Record<string, any>;

const DEFS = (specSchemas as { $defs: Record<string, Schema> }).$defs;
const SECRET = new Set<string>(secretFields);
// Filled by the sandbox's signing step, never taken from an example.
const NOT_ECHOED = new Set(['encryption_data']);

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) current = DEFS[String(current.$ref).replace('#/$defs/', '')] ?? {};
  return current;
}

/** The properties and required names of an object schema, following allOf; anyOf/oneOf take their first branch. */
function objectShape(schema: Schema): { properties: Record<string, Schema>; required: Set<string> } {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const visit = (node: Schema, depth: number): void => {
    const s = resolve(node);
    if (depth > 16) return;
    Object.assign(properties, s.properties ?? {});
    for (const name of s.required ?? []) required.add(name);
    for (const part of s.allOf ?? []) visit(part, depth + 1);
    const branch = (s.anyOf ?? s.oneOf)?.[0];
    if (branch) visit(branch, depth + 1);
  };
  visit(schema, 0);
  return { properties, required };
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
}

/** The spec's own value for a property: `const`, its first example, `default`, first enum or known value. */
function specValue(schema: Schema): { value: unknown } | null {
  if (schema.const !== undefined) return { value: schema.const };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  if (schema.example !== undefined) return { value: schema.example };
  if (schema.default !== undefined) return { value: schema.default };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { value: schema.enum[0] };
  const known = schema['x-gw-known-values'];
  if (Array.isArray(known) && known.length > 0) return { value: known[0] };
  return null;
}

function fallback(schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}

/** A value for `schema`: the request's own value where it has one (echo), else the spec's example, else a default. */
function valueFor(node: Schema, echo: unknown, depth: number): unknown {
  const schema = resolve(node);
  const type = typeOf(schema) ?? (schema.properties || schema.allOf ? 'object' : undefined);
  if (type === 'array') {
    if (Array.isArray(echo)) return echo.map((element) => valueFor(schema.items ?? {}, element, depth + 1));
    return specValue(schema)?.value ?? [];
  }
  if (type === 'object' || (!type && (schema.anyOf || schema.oneOf))) {
    return depth > 16 ? {} : recordFor(schema, echo !== null && typeof echo === 'object' && !Array.isArray(echo) ? (echo as WireRecord) : {}, depth + 1);
  }
  if ((typeof echo === 'string' && type === 'string') || (typeof echo === 'number' && (type === 'number' || type === 'integer'))) return echo;
  return specValue(schema)?.value ?? fallback(schema);
}

function recordFor(schema: Schema, echo: WireRecord, depth: number): WireRecord {
  const { properties, required } = objectShape(schema);
  const out: WireRecord = {};
  for (const [name, property] of Object.entries(properties)) {
    if (NOT_ECHOED.has(name) || SECRET.has(name)) continue;
    const echoed = Object.hasOwn(echo, name) ? echo[name] : undefined;
    const resolved = resolve(property);
    // A member appears when the request carried it, the spec shows a value for it, or the schema requires it.
    if (echoed === undefined && !required.has(name) && specValue(resolved) === null && !resolved.properties && !resolved.allOf) continue;
    out[name] = valueFor(property, echoed, depth);
  }
  return out;
}

/**
 * The answer to an operation the sandbox keeps no state for (UNKNOWNS U53): its response schema filled from the
 * request (same-named members are echoed, §2.6; card data never is), then the spec's examples, then type defaults
 * (`''`, `0`, `false`, `[]`). The sandbox signs it like every other answer.
 */
export function specExampleAnswer(op: OperationSpec, request: WireRecord): WireRecord {
  return recordFor({ $ref: `#/$defs/${op.responseSchema}` }, request, 0);
}
