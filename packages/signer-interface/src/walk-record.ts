import { MAX_RECORD_DEPTH } from '@gw/types';
import { SignableMessageError } from './signable-message-error.ts';

/** The member left out of every signed message: the signature cannot cover itself. */
export const ENCRYPTION_DATA = 'encryption_data';

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

/**
 * The typed refusal of a record nesting objects and arrays more than `MAX_RECORD_DEPTH` (from `@gw/types`, the limit
 * validation sets) levels deep; `path` is where the walk stopped. The walks refuse such a record instead of recursing
 * into it, so an answer nested thousands of levels deep gives a typed error, never a stack overflow.
 */
export function tooDeepError(context: { operation?: string }, path: string): SignableMessageError {
  return new SignableMessageError(
    `Cannot sign: the record is nested more than ${MAX_RECORD_DEPTH} levels deep (at "${path}"); no gateway record is, so it cannot be signed or verified.`,
    { ...context, path, valueType: 'object', reason: 'too-deep', maxDepth: MAX_RECORD_DEPTH },
  );
}

const UNSIGNABLE = 'values must be strings, finite numbers, booleans, null, arrays or plain objects';

/** One step into a record: an object key or an array index. */
export type PathSegment = string | number;

/** What a walk hands each leaf: its path, its value as signed text, and the keys and indexes from the record to it (the walk's own list: copy it to keep it). */
export type LeafVisitor = (path: string, value: string, segments: readonly PathSegment[]) => void;

/** One walk: what its errors name, what it calls for each leaf, the segments to where it is and the containers it is in. */
type Walk = { readonly context: { operation?: string }; readonly onLeaf: LeafVisitor; readonly segments: PathSegment[]; readonly above: object[] };

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

// Walks into a member or element: `segment` is its key or index.
function visitMember(walk: Walk, value: unknown, path: string, segment: PathSegment): void {
  walk.segments.push(segment);
  visit(walk, value, path);
  walk.segments.pop();
}

// Bounded (one frame per level): a container deeper than MAX_RECORD_DEPTH is refused, never walked; so is a cycle.
function visitContainer(walk: Walk, container: unknown[] | Record<string, unknown>, path: string): void {
  if (walk.above.length >= MAX_RECORD_DEPTH) throw tooDeepError(walk.context, path);
  if (walk.above.includes(container)) refuse(walk, path, container, 'a circular reference');
  walk.above.push(container);
  // An index loop, not forEach: holes in a sparse array are written as null by JSON, so they count as "".
  if (Array.isArray(container)) for (let index = 0; index < container.length; index++) visitMember(walk, container[index], `${path}[${index}]`, index);
  else {
    for (const [key, member] of Object.entries(container)) {
      if (key !== ENCRYPTION_DATA && member !== undefined) visitMember(walk, member, path === '' ? key : `${path}.${key}`, key);
    }
  }
  walk.above.pop();
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
  visitContainer({ context, onLeaf, segments: [], above: [] }, record, '');
}
