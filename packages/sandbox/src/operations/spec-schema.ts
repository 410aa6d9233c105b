// The spec's component schemas (the generated `specSchemas`), walked the way the sandbox reads answers and requests.
import { specSchemas } from '@gw/types';

/** A JSON Schema node of the spec. */
export type Schema = Record<string, any>;

const DEFS = (specSchemas as { $defs: Record<string, Schema> }).$defs;
const EMPTY: Schema = Object.freeze({});
// The spec's schemas never change: what is read from a node is worked out once per node, not once per request.
const NAMED = new Map<string, Schema>();
const RESOLVED = new WeakMap<Schema, Schema>();
const SHAPES = new WeakMap<Schema, Readonly<Record<string, Schema>>>();
const TYPES = new WeakMap<Schema, string | undefined>();

/** The schema named `name` in the spec's components, as a `$ref` node (the same node for the same name). */
export function schemaNamed(name: string): Schema {
  let node = NAMED.get(name);
  if (!node) NAMED.set(name, (node = Object.freeze({ $ref: `#/$defs/${name}` })));
  return node;
}

/** The schema a node refers to (following `$ref` chains), or the node itself. */
export function resolve(schema: Schema | undefined): Schema {
  if (!schema) return EMPTY;
  let current = RESOLVED.get(schema);
  if (current) return current;
  current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) current = DEFS[String(current.$ref).replace('#/$defs/', '')] ?? EMPTY;
  RESOLVED.set(schema, current);
  return current;
}

/** The members of an object schema, following allOf; anyOf/oneOf take their first branch. */
export function membersOf(schema: Schema): Readonly<Record<string, Schema>> {
  const target = resolve(schema);
  const cached = SHAPES.get(target);
  if (cached) return cached;
  const properties: Record<string, Schema> = {};
  const visit = (node: Schema, depth: number): void => {
    const s = resolve(node);
    if (depth > 16) return;
    Object.assign(properties, s.properties ?? {});
    for (const part of s.allOf ?? []) visit(part, depth + 1);
    const branch = (s.anyOf ?? s.oneOf)?.[0];
    if (branch) visit(branch, depth + 1);
  };
  visit(target, 0);
  SHAPES.set(target, properties);
  return properties;
}

/** A schema's type (the first that is not `null`), or `object` for a schema with members and no type. */
export function typeOf(schema: Schema): string | undefined {
  const resolved = resolve(schema);
  if (TYPES.has(resolved)) return TYPES.get(resolved);
  const type = Array.isArray(resolved.type) ? resolved.type.find((t: string) => t !== 'null') : resolved.type;
  const found: string | undefined = type ?? (resolved.properties || resolved.allOf || resolved.anyOf || resolved.oneOf ? 'object' : undefined);
  TYPES.set(resolved, found);
  return found;
}
