// The values the spec shows for a record: its own examples first, then each member's `example`/`examples` (or those of
// the schema it refers to), then a value for the member's `format`. One rule for the example files `pnpm generate`
// writes and for the answer examples the sandbox fills members from.
// The walker's own source, not the built @gw/types: codegen writes that package's generated files, so it must run on a
// fresh clone before anything is built. The walker imports nothing generated.
import { SchemaWalker } from '../../../packages/types/src/schema/schema-walker.ts';
import type { SpecDocument } from './spec.ts';

type Schema = Record<string, any>;

/** A value for each JSON Schema `format` the spec may use, for a member that shows no example of its own. */
export const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: '2026-01-01',
  'date-time': '2026-01-01T12:00:00Z',
  time: '12:00:00Z',
  duration: 'P1D',
  email: 'shopper@example.com',
  'idn-email': 'shopper@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f2b8a4e-9c1d-4e5f-8a7b-6c5d4e3f2a1b',
};

const MAX_DEPTH = 16;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value a schema node states itself (not through `$ref`): `const`, first example, `default`, first enum or known value. */
export function ownValue(node: Schema | undefined): { value: unknown } | null {
  if (!node) return null;
  if (node.const !== undefined) return { value: node.const };
  if (Array.isArray(node.examples) && node.examples.length > 0) return { value: node.examples[0] };
  if (node.example !== undefined) return { value: node.example };
  if (node.default !== undefined) return { value: node.default };
  if (Array.isArray(node.enum) && node.enum.length > 0) return { value: node.enum[0] };
  const known = node['x-gw-known-values'];
  if (Array.isArray(known) && known.length > 0) return { value: known[0] };
  return null;
}

/** Reads a document's component schemas (`$ref`s are `#/components/schemas/<name>`) through the one schema walker. */
export class SchemaReader {
  private readonly walker: SchemaWalker;

  constructor(doc: SpecDocument) {
    this.walker = new SchemaWalker((doc.components?.schemas ?? {}) as Record<string, Schema>, '#/components/schemas/');
  }

  /** The schema a node refers to (following `$ref` chains), or the node itself. */
  target(node: Schema | undefined): Schema {
    return this.walker.resolve(node);
  }

  /** The value the spec shows for a member: its own, then that of the schemas it refers to, then one for its format. */
  shownValue(node: Schema): { value: unknown } | null {
    const chain = this.walker.chain(node);
    for (const schema of chain) {
      const own = ownValue(schema);
      if (own) return own;
    }
    const format = chain.map((schema) => schema.format).find((f): f is string => typeof f === 'string' && Object.hasOwn(FORMAT_EXAMPLES, f));
    return format ? { value: FORMAT_EXAMPLES[format] } : null;
  }

  /** The members and required names of an object schema, following `$ref` and `allOf`; `anyOf`/`oneOf` take their first branch. */
  objectShape(node: Schema): { properties: Record<string, Schema>; required: Set<string>; isObject: boolean } {
    const parts = this.walker.composedOf(node);
    return {
      properties: { ...this.walker.membersOf(node) },
      required: new Set(this.walker.requiredOf(node)),
      isObject: parts.some((s) => s.type === 'object' || s.properties !== undefined),
    };
  }
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
}

/** The empty value of a schema's type, for a required member the spec shows nothing for. */
function emptyValue(schema: Schema): unknown {
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

/** Which members a completion leaves out: those the sandbox's signing fills and card data, in an answer. */
export interface CompleteOptions {
  readonly skip: ReadonlySet<string>;
}

/**
 * `example` completed from `node`'s schema: every member it has is kept (objects and array elements completed in
 * turn); every member it lacks gets the value the spec shows for it, or, for an object or an array of objects, one
 * built from its own members; a required member the spec shows nothing for gets its type's empty value.
 */
export function completeExample(reader: SchemaReader, node: Schema, example: unknown, options: CompleteOptions, depth = 0): unknown {
  if (depth > MAX_DEPTH) return example;
  const target = reader.target(node);
  if (typeOf(target) === 'array' || (Array.isArray(example) && target.items)) {
    return Array.isArray(example) ? example.map((element) => completeExample(reader, target.items ?? {}, element, options, depth + 1)) : example;
  }
  const shape = reader.objectShape(node);
  if (!shape.isObject || (example !== undefined && !isRecord(example))) return example;
  const out: Record<string, unknown> = { ...(example as Record<string, unknown> | undefined) };
  for (const [name, member] of Object.entries(shape.properties)) {
    if (options.skip.has(name)) continue;
    if (Object.hasOwn(out, name)) {
      out[name] = completeExample(reader, member, out[name], options, depth + 1);
      continue;
    }
    const built = memberExample(reader, member, options, depth + 1);
    if (built !== undefined) out[name] = built;
    else if (shape.required.has(name)) out[name] = emptyValue(reader.target(member));
  }
  return out;
}

// A member the example lacks: the value the spec shows, else an object (or one-element array of objects) built from
// the members that show values; undefined when the spec shows nothing for it.
function memberExample(reader: SchemaReader, member: Schema, options: CompleteOptions, depth: number): unknown {
  const shown = reader.shownValue(member);
  if (shown) return structuredClone(shown.value);
  const target = reader.target(member);
  if (typeOf(target) === 'array') {
    const element = memberExample(reader, target.items ?? {}, options, depth + 1);
    return element === undefined ? undefined : Array.from({ length: Math.max(1, Number(target.minItems) || 1) }, () => structuredClone(element));
  }
  if (!reader.objectShape(member).isObject) return undefined;
  const built = completeExample(reader, member, {}, options, depth) as Record<string, unknown>;
  return Object.keys(built).length > 0 ? built : undefined;
}
