import { SignableMessageError } from './signable-message-error.ts';

/** The member left out of every signed message: the signature cannot cover itself. */
export const ENCRYPTION_DATA = 'encryption_data';

/** One step into a record: an object key or an array index. */
export type PathSegment = string | number;

/** A leaf of a record: where it is and its value as signed text. */
export interface RecordLeaf {
  readonly segments: readonly PathSegment[];
  readonly path: string;
  readonly value: string;
}

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

/** What a walk hands each leaf: the shared segment stack (valid up to `depth`), the path text and the value. */
export type LeafVisitor = (stack: readonly PathSegment[], depth: number, path: string, value: string) => void;

/**
 * Walks a record in its own key order, leaving out `encryption_data` at every level (JSON.stringify semantics
 * otherwise), and calls `onLeaf` for each leaf. One segment stack and one path per depth are reused throughout: signing
 * walks a record on every request, so the walk allocates nothing per step but the path text.
 */
export function visitRecordLeaves(record: unknown, context: { operation?: string }, onLeaf: LeafVisitor): void {
  if (!isPlainObject(record)) {
    throw new SignableMessageError(`Cannot sign: the record must be a plain object, not ${describeValue(record)}.`, {
      ...context,
      valueType: describeValue(record),
    });
  }
  const ancestors = new Set<object>();
  const stack: PathSegment[] = [];
  const paths: string[] = [''];
  const refuse = (depth: number, value: unknown, why: string): never => {
    const path = formatFieldPath(stack.slice(0, depth));
    throw new SignableMessageError(`Cannot sign: the value at "${path}" is ${why}.`, {
      ...context,
      path,
      valueType: describeValue(value),
    });
  };
  const enter = (depth: number, segment: PathSegment): number => {
    const parent = paths[depth]!;
    stack[depth] = segment;
    paths[depth + 1] = typeof segment === 'number' ? `${parent}[${segment}]` : parent === '' ? segment : `${parent}.${segment}`;
    return depth + 1;
  };
  const visit = (value: unknown, depth: number): void => {
    switch (typeof value) {
      case 'string':
        return onLeaf(stack, depth, paths[depth]!, value);
      case 'boolean':
        return onLeaf(stack, depth, paths[depth]!, value ? 'true' : 'false');
      case 'number':
        if (!Number.isFinite(value)) refuse(depth, value, 'not a finite number');
        return onLeaf(stack, depth, paths[depth]!, JSON.stringify(value));
      case 'undefined':
        // Only reached for array elements and holes (members are skipped): JSON writes them as null.
        return onLeaf(stack, depth, paths[depth]!, '');
      case 'object':
        break;
      default:
        return refuse(depth, value, `a ${typeof value}; values must be strings, finite numbers, booleans, null, arrays or plain objects`);
    }
    if (value === null) return onLeaf(stack, depth, paths[depth]!, '');
    if (ancestors.has(value)) refuse(depth, value, 'a circular reference');
    if (Array.isArray(value)) {
      ancestors.add(value);
      // An index loop, not forEach: holes in a sparse array are written as null by JSON, so they count as "".
      for (let index = 0; index < value.length; index++) visit(value[index], enter(depth, index));
      ancestors.delete(value);
      return;
    }
    if (!isPlainObject(value)) {
      return refuse(depth, value, `a ${describeValue(value)}; values must be strings, finite numbers, booleans, null, arrays or plain objects`);
    }
    ancestors.add(value);
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (key === ENCRYPTION_DATA || member === undefined) continue;
      visit(member, enter(depth, key));
    }
    ancestors.delete(value);
  };
  visit(record, 0);
}

/** Walks a record in its own key order, leaving out `encryption_data` at every level; JSON.stringify semantics otherwise. */
export function walkRecord(record: unknown, context: { operation?: string } = {}): RecordLeaf[] {
  const leaves: RecordLeaf[] = [];
  visitRecordLeaves(record, context, (stack, depth, path, value) => leaves.push({ segments: stack.slice(0, depth), path, value }));
  return leaves;
}
