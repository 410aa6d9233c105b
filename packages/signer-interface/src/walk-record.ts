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

/** Walks a record in its own key order, leaving out `encryption_data` at every level; JSON.stringify semantics otherwise. */
export function walkRecord(record: unknown, context: { operation?: string } = {}): RecordLeaf[] {
  if (!isPlainObject(record)) {
    throw new SignableMessageError(`Cannot sign: the record must be a plain object, not ${describeValue(record)}.`, {
      ...context,
      valueType: describeValue(record),
    });
  }
  const leaves: RecordLeaf[] = [];
  const ancestors = new Set<object>();
  const refuse = (segments: readonly PathSegment[], value: unknown, why: string): never => {
    const path = formatFieldPath(segments);
    throw new SignableMessageError(`Cannot sign: the value at "${path}" is ${why}.`, {
      ...context,
      path,
      valueType: describeValue(value),
    });
  };
  // The path text grows with the walk (one concatenation per step), rather than being re-formatted at every leaf.
  const paths: string[] = [''];
  const leaf = (segments: PathSegment[], value: string): void => {
    leaves.push({ segments, path: paths[segments.length]!, value });
  };
  const enter = (segments: PathSegment[], segment: PathSegment): PathSegment[] => {
    const parent = paths[segments.length]!;
    paths[segments.length + 1] = typeof segment === 'number' ? `${parent}[${segment}]` : parent === '' ? segment : `${parent}.${segment}`;
    return [...segments, segment];
  };
  const visit = (value: unknown, segments: PathSegment[]): void => {
    switch (typeof value) {
      case 'string':
        return leaf(segments, value);
      case 'boolean':
        return leaf(segments, value ? 'true' : 'false');
      case 'number':
        if (!Number.isFinite(value)) refuse(segments, value, 'not a finite number');
        return leaf(segments, JSON.stringify(value));
      case 'undefined':
        // Only reached for array elements and holes (members are skipped): JSON writes them as null.
        return leaf(segments, '');
      case 'object':
        break;
      default:
        return refuse(segments, value, `a ${typeof value}; values must be strings, finite numbers, booleans, null, arrays or plain objects`);
    }
    if (value === null) return leaf(segments, '');
    if (ancestors.has(value)) refuse(segments, value, 'a circular reference');
    if (Array.isArray(value)) {
      ancestors.add(value);
      // An index loop, not forEach: holes in a sparse array are written as null by JSON, so they count as "".
      for (let index = 0; index < value.length; index++) visit(value[index], enter(segments, index));
      ancestors.delete(value);
      return;
    }
    if (!isPlainObject(value)) {
      return refuse(segments, value, `a ${describeValue(value)}; values must be strings, finite numbers, booleans, null, arrays or plain objects`);
    }
    ancestors.add(value);
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (key === ENCRYPTION_DATA || member === undefined) continue;
      visit(member, enter(segments, key));
    }
    ancestors.delete(value);
  };
  visit(record, []);
  return leaves;
}
