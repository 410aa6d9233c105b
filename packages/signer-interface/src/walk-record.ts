import { MAX_RECORD_DEPTH, tooDeepError } from './record-depth.ts';
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

const UNSIGNABLE = 'values must be strings, finite numbers, booleans, null, arrays or plain objects';

/** A leaf's value as signed text (JSON.stringify semantics), or undefined for a container; refuses anything else. */
function leafText(value: unknown, refuse: (why: string) => never): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : refuse('not a finite number');
    case 'undefined':
      return ''; // only reached for array elements and holes (members are skipped): JSON writes them as null
    case 'object':
      if (value === null) return '';
      if (Array.isArray(value) || isPlainObject(value)) return undefined;
      return refuse(`a ${describeValue(value)}; ${UNSIGNABLE}`);
    default:
      return refuse(`a ${typeof value}; ${UNSIGNABLE}`);
  }
}

/**
 * Walks a record in its own key order, leaving out `encryption_data` at every level (JSON.stringify semantics
 * otherwise), and returns its leaves. Refuses values that cannot be signed, cycles, and records nested deeper than
 * `MAX_RECORD_DEPTH` (`SignableMessageError`, reason `too-deep`) with the path, never the value.
 */
export function walkRecord(record: unknown, context: { operation?: string } = {}): RecordLeaf[] {
  if (!isPlainObject(record)) {
    const valueType = describeValue(record);
    throw new SignableMessageError(`Cannot sign: the record must be a plain object, not ${valueType}.`, { ...context, valueType });
  }
  const leaves: RecordLeaf[] = [];
  const ancestors = new Set<object>();
  const visit = (value: unknown, segments: PathSegment[], path: string): void => {
    const refuse = (why: string): never => {
      throw new SignableMessageError(`Cannot sign: the value at "${path}" is ${why}.`, { ...context, path, valueType: describeValue(value) });
    };
    const text = leafText(value, refuse);
    if (text !== undefined) {
      leaves.push({ segments, path, value: text });
      return;
    }
    const container = value as object;
    // Bounds the recursion (one frame per level): deeper input is refused, never walked.
    if (segments.length >= MAX_RECORD_DEPTH) throw tooDeepError(context, path);
    if (ancestors.has(container)) refuse('a circular reference');
    ancestors.add(container);
    if (Array.isArray(container)) {
      // An index loop, not forEach: holes in a sparse array are written as null by JSON, so they count as "".
      for (let index = 0; index < container.length; index++) visit(container[index], [...segments, index], `${path}[${index}]`);
    } else {
      for (const [key, member] of Object.entries(container)) {
        if (key !== ENCRYPTION_DATA && member !== undefined) visit(member, [...segments, key], path === '' ? key : `${path}.${key}`);
      }
    }
    ancestors.delete(container);
  };
  visit(record, [], '');
  return leaves;
}
