import { MAX_RECORD_DEPTH } from '@gw/types';
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

/** A container the walk is in, its key or index in its parent (none for the record), its parent's frame and its depth. */
export interface WalkFrame {
  readonly container: object;
  readonly segment: PathSegment | undefined;
  readonly parent: WalkFrame | undefined;
  readonly depth: number;
}

/** What a walk hands each leaf: its path, its value as signed text, its key or index, and the frame of its container. */
export type LeafVisitor = (path: string, value: string, segment: PathSegment, frame: WalkFrame) => void;

/** One walk: what its errors name, and what it calls for each leaf. */
type Walk = { readonly context: { operation?: string }; readonly onLeaf: LeafVisitor };

function refuse(walk: Walk, path: string, value: unknown, why: string): never {
  throw new SignableMessageError(`Cannot sign: the value at "${path}" is ${why}.`, { ...walk.context, path, valueType: describeValue(value) });
}

// Calls the visitor for a leaf, walks into an array or a plain object, refuses anything else.
function visit(walk: Walk, value: unknown, path: string, segment: PathSegment, frame: WalkFrame): void {
  switch (typeof value) {
    case 'string':
      return walk.onLeaf(path, value, segment, frame);
    case 'boolean':
      return walk.onLeaf(path, value ? 'true' : 'false', segment, frame);
    case 'number':
      if (!Number.isFinite(value)) refuse(walk, path, value, 'not a finite number');
      return walk.onLeaf(path, JSON.stringify(value), segment, frame);
    case 'undefined':
      // Only reached for array elements and holes (members are skipped): JSON writes them as null.
      return walk.onLeaf(path, '', segment, frame);
    case 'object':
      if (value === null) return walk.onLeaf(path, '', segment, frame);
      if (Array.isArray(value) || isPlainObject(value)) return visitContainer(walk, value, path, segment, frame);
      return refuse(walk, path, value, `a ${describeValue(value)}; ${UNSIGNABLE}`);
    default:
      return refuse(walk, path, value, `a ${typeof value}; ${UNSIGNABLE}`);
  }
}

function visitContainer(walk: Walk, container: unknown[] | Record<string, unknown>, path: string, segment: PathSegment | undefined, parent: WalkFrame | undefined): void {
  const depth = parent === undefined ? 0 : parent.depth + 1;
  // Bounds the recursion (one frame per level): deeper input is refused, never walked.
  if (depth >= MAX_RECORD_DEPTH) throw tooDeepError(walk.context, path);
  for (let above = parent; above !== undefined; above = above.parent) {
    if (above.container === container) refuse(walk, path, container, 'a circular reference');
  }
  const frame: WalkFrame = { container, segment, parent, depth };
  if (Array.isArray(container)) {
    // An index loop, not forEach: holes in a sparse array are written as null by JSON, so they count as "".
    for (let index = 0; index < container.length; index++) visit(walk, container[index], `${path}[${index}]`, index, frame);
  } else {
    for (const key of Object.keys(container)) {
      const member = container[key];
      if (key !== ENCRYPTION_DATA && member !== undefined) visit(walk, member, path === '' ? key : `${path}.${key}`, key, frame);
    }
  }
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
  visitContainer({ context, onLeaf }, record, '', undefined, undefined);
}
