// §2.6: an answer's members that the request carries too are the request's values (card data and the signature never).
import { secretFields } from '@gw/types';
import type { WireRecord } from '../context.ts';
import { membersOf, resolve, typeOf, type Schema } from './spec-schema.ts';

const SECRET = new Set<string>(secretFields);
// Filled by the sandbox's signing step, never taken from the request.
const NOT_ECHOED = new Set(['encryption_data']);
const MAX_DEPTH = 16;

/** A member of an answer's schema that may be echoed: its name, its schema and that schema's type. */
interface Echoable {
  readonly name: string;
  readonly node: Schema;
  readonly type: string | undefined;
}

// Worked out once per schema (the spec's schemas never change), not for every request.
const ECHOABLE = new WeakMap<Schema, readonly Echoable[]>();

/** The members of `schema` that may be echoed (not card data, not the signature). */
function echoableMembers(schema: Schema): readonly Echoable[] {
  const target = resolve(schema);
  let members = ECHOABLE.get(target);
  if (!members) {
    members = Object.entries(membersOf(target))
      .filter(([name]) => !NOT_ECHOED.has(name) && !SECRET.has(name))
      .map(([name, node]) => ({ name, node, type: typeOf(node) }));
    ECHOABLE.set(target, members);
  }
  return members;
}

/** The request's own value for a member of the answer, undefined where it carries none of that type. */
function echoed(node: Schema, type: string | undefined, echo: unknown, depth: number): unknown {
  if (type === 'array') {
    if (!Array.isArray(echo)) return undefined;
    const items = resolve(node).items ?? {};
    const itemType = typeOf(items);
    return echo.map((element) => echoed(items, itemType, element, depth + 1)).filter((element) => element !== undefined);
  }
  if (type === 'object') return depth > MAX_DEPTH || echo === null || typeof echo !== 'object' || Array.isArray(echo) ? undefined : echoRecord(node, echo as WireRecord, depth + 1);
  if ((typeof echo === 'string' && type === 'string') || (typeof echo === 'number' && (type === 'number' || type === 'integer'))) return echo;
  return undefined;
}

/** The members of `schema` (an answer's) that `request` carries with a value of the member's type, copied from it. */
export function echoRecord(schema: Schema, request: WireRecord, depth = 0): WireRecord {
  const out: WireRecord = {};
  for (const { name, node, type } of echoableMembers(schema)) {
    if (!Object.hasOwn(request, name)) continue;
    const value = echoed(node, type, request[name], depth);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
