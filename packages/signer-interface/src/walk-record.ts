import { MAX_RECORD_DEPTH } from '@gw/types';
import { tooDeepError } from './record-depth.ts';
import { SignableMessageError } from './signable-message-error.ts';

/** The member left out of every signed message: the signature cannot cover itself. */
export const ENCRYPTION_DATA = 'encryption_data';

/** One step into a record: an object key or an array index. */
export type PathSegment = string | number;

/** Writes segments as a field path: `capture_orders[0].amount`, `the service` (keys are not escaped). */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** True for `{}`-style objects; class instances (Date, Map, Buffer) are not plain. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : String(value); // NaN / Infinity, never a real value
  if (typeof value === 'object' && value !== null) {
    const ctor: unknown = (value as { constructor?: unknown }).constructor;
    return typeof ctor === 'function' && ctor.name ? ctor.name : 'object';
  }
  return typeof value;
}

const UNSIGNABLE = 'values must be strings, finite numbers, booleans, null, arrays or plain objects';

/** What a walk hands each leaf: its path, its value as signed text, and its segments (valid during the call only). */
export type LeafVisitor = (path: string, value: string, segments: readonly PathSegment[]) => void;

/** One walk of one record: the segments of the current path (one array, pushed and popped) and the containers above it. */
interface Walk {
  readonly context: { operation?: string };
  readonly onLeaf: LeafVisitor;
  readonly segments: PathSegment[];
  readonly ancestors: Set<object>;
}

function refuse(walk: Walk, path: string, value: unknown, why: string): never {
  throw new SignableMessageError(`Cannot sign: the value at "${path}" is ${why}.`, { ...walk.context, path, valueType: describeValue(value) });
}

// Calls the visitor for a leaf, walks into an array or a plain object, refuses anything else.
function visit(walk: Walk, value: unknown, path: string): void {
  switch (typeof value) {
    case 'string':
      return walk.onLeaf(path, value, walk.segments);
    case 'boolean':
      return walk.onLeaf(path, value ? 'true' : 'false', walk.segments);
    case 'number':
      if (!Number.isFinite(value)) refuse(walk, path, value, 'not a finite number');
      return walk.onLeaf(path, JSON.stringify(value), walk.segments);
    case 'undefined':
      // Only reached for array elements and holes (members are skipped): JSON writes them as null.
      return walk.onLeaf(path, '', walk.segments);
    case 'object':
      if (value === null) return walk.onLeaf(path, '', walk.segments);
      if (Array.isArray(value) || isPlainObject(value)) return visitContainer(walk, value, path);
      return refuse(walk, path, value, `a ${describeValue(value)}; ${UNSIGNABLE}`);
    default:
      return refuse(walk, path, value, `a ${typeof value}; ${UNSIGNABLE}`);
  }
}

function visitContainer(walk: Walk, value: unknown[] | Record<string, unknown>, path: string): void {
  const { segments, ancestors } = walk;
  // Bounds the recursion (one frame per level): deeper input is refused, never walked.
  if (segments.length >= MAX_RECORD_DEPTH) throw tooDeepError(walk.context, path);
  if (ancestors.has(value)) refuse(walk, path, value, 'a circular reference');
  ancestors.add(value);
  if (Array.isArray(value)) {
    // An index loop, not forEach: holes in a sparse array are written as null by JSON, so they count as "".
    for (let index = 0; index < value.length; index++) {
      segments.push(index);
      visit(walk, value[index], `${path}[${index}]`);
      segments.pop();
    }
  } else {
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (key === ENCRYPTION_DATA || member === undefined) continue;
      segments.push(key);
      visit(walk, member, path === '' ? key : `${path}.${key}`);
      segments.pop();
    }
  }
  ancestors.delete(value);
}

/**
 * Walks a record in its own key order, leaving out `encryption_data` at every level (JSON.stringify semantics
 * otherwise), and calls `onLeaf` for each leaf. Refuses values that cannot be signed, cycles, and records nested deeper
 * than `MAX_RECORD_DEPTH` (`SignableMessageError`, reason `too-deep`) with the path, never the value.
 */
export function visitRecordLeaves(record: unknown, context: { operation?: string }, onLeaf: LeafVisitor): void {
  if (!isPlainObject(record)) {
    const valueType = describeValue(record);
    throw new SignableMessageError(`Cannot sign: the record must be a plain object, not ${valueType}.`, { ...context, valueType });
  }
  visit({ context, onLeaf, segments: [], ancestors: new Set() }, record, '');
}
