// §2.6: an answer's members that the request carries too are the request's values (card data and the signature never).
import { secretFields } from '@gw/types';
import type { WireRecord } from '../context.ts';
import { membersOf, resolve, typeOf, type Schema } from './spec-schema.ts';

const SECRET = new Set<string>(secretFields);
// Filled by the sandbox's signing step, never taken from the request.
const NOT_ECHOED = new Set(['encryption_data']);
const MAX_DEPTH = 16;

/** The request's own value for a member of the answer, undefined where it carries none of that type. */
function echoed(node: Schema, echo: unknown, depth: number): unknown {
  const type = typeOf(node);
  if (type === 'array') return Array.isArray(echo) ? echo.map((element) => echoed(resolve(node).items ?? {}, element, depth + 1)).filter((element) => element !== undefined) : undefined;
  if (type === 'object') return depth > MAX_DEPTH || echo === null || typeof echo !== 'object' || Array.isArray(echo) ? undefined : echoRecord(node, echo as WireRecord, depth + 1);
  if ((typeof echo === 'string' && type === 'string') || (typeof echo === 'number' && (type === 'number' || type === 'integer'))) return echo;
  return undefined;
}

/** The members of `schema` (an answer's) that `request` carries with a value of the member's type, copied from it. */
export function echoRecord(schema: Schema, request: WireRecord, depth = 0): WireRecord {
  const out: WireRecord = {};
  for (const [name, property] of Object.entries(membersOf(schema))) {
    if (NOT_ECHOED.has(name) || SECRET.has(name) || !Object.hasOwn(request, name)) continue;
    const value = echoed(property, request[name], depth);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
