import { specSchema, type SchemaNode } from '@gw/types';

/** How one XML element is read and written, derived from the spec's JSON Schema of the record. */
export type ElementPlan = TextPlan | NumberPlan | RecordPlan;

/** An element whose text is the value (`type: string`). */
export interface TextPlan {
  readonly kind: 'text';
}

/** An element whose text is a JSON number in the record (`type: number` or `integer`). */
export interface NumberPlan {
  readonly kind: 'number';
  readonly integer: boolean;
}

/** An element with child elements (`type: object`); `emptyAsText` when the spec also allows `''` for it. */
export interface RecordPlan {
  readonly kind: 'record';
  /** The `$defs` name the plan was built from (or the referring schema's, for inline objects). */
  readonly schema: string;
  readonly children: ReadonlyMap<string, ElementPlan>;
  readonly emptyAsText: boolean;
}

type JsonSchema = SchemaNode;

/** A node resolved through its `$ref` chain, with the last schema name on the way; a dangling reference is a fault of the spec. */
function resolve(schema: JsonSchema, where: string): { schema: JsonSchema; name: string | null } {
  const chain = specSchema.chain(schema);
  const last = chain[chain.length - 1]!;
  const dangling = specSchema.refName(last);
  if (dangling !== null) throw new Error(`@gw/xml-codec: cannot resolve ${String(last.$ref)} at ${where}`);
  return { schema: last, name: chain.length > 1 ? specSchema.refName(chain[chain.length - 2]!) : null };
}

function isEmptyStringConst(schema: JsonSchema): boolean {
  return schema.type === 'string' && schema.const === '';
}

function planOf(raw: JsonSchema, where: string, fallbackName: string): ElementPlan {
  const { schema, name } = resolve(raw, where);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    const others = alternatives.filter((alt) => !isEmptyStringConst(resolve(alt, where).schema));
    const plans = others.map((alt) => planOf(alt, where, fallbackName));
    const record = plans.find((plan): plan is RecordPlan => plan.kind === 'record');
    // `RiskReasons | ''`: an element with children, or empty.
    if (plans.length === 1 && record) return { ...record, emptyAsText: others.length < alternatives.length };
    if (plans.every((plan) => plan.kind === 'text')) return { kind: 'text' };
    throw new Error(`@gw/xml-codec: unsupported anyOf/oneOf at ${where}`);
  }
  switch (schema.type) {
    case 'string':
      return { kind: 'text' };
    case 'number':
      return { kind: 'number', integer: false };
    case 'integer':
      return { kind: 'number', integer: true };
    case 'object':
      return recordPlan(schema, name ?? fallbackName, where);
    default:
      // Arrays, booleans and untyped schemas have no agreed XML shape: fail at load so a spec change is noticed.
      throw new Error(`@gw/xml-codec: unsupported schema type ${JSON.stringify(schema.type)} at ${where}`);
  }
}

function recordPlan(schema: JsonSchema, name: string, where: string): RecordPlan {
  const children = new Map<string, ElementPlan>();
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, property] of Object.entries(properties)) children.set(key, planOf(property, `${where}.${key}`, `${name}.${key}`));
  return { kind: 'record', schema: name, children, emptyAsText: false };
}

/** Builds the element plan of a `$defs` schema, e.g. `CardRespon`; throws at load time if the spec lacks it. */
export function buildRecordPlan(schemaName: string): RecordPlan {
  const schema = specSchema.named(schemaName);
  if (!schema) throw new Error(`@gw/xml-codec: the spec has no schema ${schemaName}`);
  const plan = planOf(schema, schemaName, schemaName);
  if (plan.kind !== 'record') throw new Error(`@gw/xml-codec: ${schemaName} is not an object schema`);
  return plan;
}
