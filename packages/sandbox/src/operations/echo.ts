// §2.6: an answer's members that the request carries too are the request's values (card data and the signature never).
import { secretFields, specSchema, type SchemaNode } from '@gw/types';
import type { WireRecord } from '../wire/wire-record.ts';

const SECRET = new Set<string>(secretFields);
// Filled by the sandbox's signing step, never taken from the request.
const NOT_ECHOED = new Set(['encryption_data']);
const MAX_DEPTH = 16;

/** A member of an answer's schema that may be echoed: its name, its schema and that schema's type. */
interface Echoable {
  readonly name: string;
  readonly node: SchemaNode;
  readonly type: string | undefined;
}

// Worked out once per schema (the spec's schemas never change), not for every request.
const ECHOABLE = new WeakMap<SchemaNode, readonly Echoable[]>();

/** The members of `schema` that may be echoed (not card data, not the signature). */
function echoableMembers(schema: SchemaNode | undefined): readonly Echoable[] {
  const target = specSchema.resolve(schema);
  let members = ECHOABLE.get(target);
  if (!members) {
    members = Object.entries(specSchema.membersOf(target))
      .filter(([name]) => !NOT_ECHOED.has(name) && !SECRET.has(name))
      .map(([name, node]) => ({ name, node, type: specSchema.typeOf(node) }));
    ECHOABLE.set(target, members);
  }
  return members;
}

/** The request's own value for a member of the answer, undefined where it carries none of that type. */
function echoed(node: SchemaNode, type: string | undefined, echo: unknown, depth: number): unknown {
  if (type === 'array') {
    if (!Array.isArray(echo)) return undefined;
    const items = specSchema.resolve(node).items ?? {};
    const itemType = specSchema.typeOf(items);
    return echo.map((element) => echoed(items, itemType, element, depth + 1)).filter((element) => element !== undefined);
  }
  if (type === 'object')
    return depth > MAX_DEPTH || echo === null || typeof echo !== 'object' || Array.isArray(echo) ? undefined : echoRecord(node, echo as WireRecord, depth + 1);
  if ((typeof echo === 'string' && type === 'string') || (typeof echo === 'number' && (type === 'number' || type === 'integer'))) return echo;
  return undefined;
}

/** The members of `schema` (an answer's; none when absent) that `request` carries with a value of the member's type, copied from it. */
export function echoRecord(schema: SchemaNode | undefined, request: WireRecord, depth = 0): WireRecord {
  const out: WireRecord = {};
  for (const { name, node, type } of echoableMembers(schema)) {
    if (!Object.hasOwn(request, name)) continue;
    const value = echoed(node, type, request[name], depth);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
