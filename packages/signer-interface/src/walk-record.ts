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

/**
 * The leaves' indexes (in walk order) sorted by path in code-point order. Computed per container instead of by
 * comparing whole paths: a member's leaves all start with `key` followed by nothing (a value), `.` (an object) or `[`
 * (an array), so while no key holds `.`, `[`, `]` or a surrogate, sorting each object's members by `key` plus that
 * character, and each array's elements by `index]`, gives exactly the order of the whole paths, and no two paths are
 * equal. An empty key breaks it too (a path leaves out the dot after an empty top-level key), and so, to spare
 * signers escaping paths, does a key with `%`, `&` or `=`: with a PathOrder, no path needs escaping. A key that
 * breaks the rule makes the walk give null, and the caller sorts whole paths instead.
 */
export type PathOrder = readonly number[];

const ORDER_BREAKING = /[.[\]%&=\uD800-\uDFFF]/;
const ORDER_SAFE_KEYS = new Set<string>();

/**
 * True for a key that keeps the structural order exact (not empty, no `.`, `[`, `]` or surrogate) and needs no escaping
 * in a signing text (no `%`, `&`, `=`); remembered.
 */
function orderSafeKey(key: string): boolean {
  if (ORDER_SAFE_KEYS.has(key)) return true;
  if (key === '' || ORDER_BREAKING.test(key)) return false;
  if (ORDER_SAFE_KEYS.size < 10_000) ORDER_SAFE_KEYS.add(key);
  return true;
}

/** The indexes of `keys` in ascending order of the keys (an insertion sort: objects have few members). */
function sortedIndexes(keys: readonly string[]): number[] {
  const order: number[] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    let j = i;
    const key = keys[i]!;
    while (j > 0 && keys[order[j - 1]!]! > key) {
      order[j] = order[j - 1]!;
      j--;
    }
    order[j] = i;
  }
  return order;
}

function pathContinuation(member: unknown): string {
  if (typeof member !== 'object' || member === null) return '';
  return Array.isArray(member) ? '[' : '.';
}

function copyBlock(out: number[], from: readonly number[], start: number, end: number): void {
  for (let i = start; i < end; i++) out.push(from[i]!);
}

const INDEX_ORDERS = new Map<number, readonly number[]>();

/** Indexes 0..length-1 in the order of their `index]` text ("10]" sorts before "1]"), cached per length. */
function indexTextOrder(length: number): readonly number[] {
  let order = INDEX_ORDERS.get(length);
  if (!order) {
    const texts = Array.from({ length }, (_, index) => `${index}]`);
    order = Array.from({ length }, (_, index) => index).sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : 0));
    if (INDEX_ORDERS.size < 4096) INDEX_ORDERS.set(length, order);
  }
  return order;
}

/** What a walk hands each leaf: the shared segment stack (valid up to `depth`), the path text and the value. */
export type LeafVisitor = (stack: readonly PathSegment[], depth: number, path: string, value: string) => void;

/**
 * Walks a record in its own key order, leaving out `encryption_data` at every level (JSON.stringify semantics
 * otherwise), refusing one nested deeper than `MAX_RECORD_DEPTH` with `SignableMessageError` (reason `too-deep`), and calls `onLeaf` for each leaf. One segment stack and one path per depth are reused throughout: signing
 * walks a record on every request, so the walk allocates nothing per step but the path text (and, when it builds the
 * order by path, a few small arrays per object or array).
 */
export function visitRecordLeaves(record: unknown, context: { operation?: string }, onLeaf: LeafVisitor): void;
/**
 * The same walk that also returns the leaves' order by path (see `PathOrder`), or null when a key rules the
 * structural order out.
 */
export function visitRecordLeaves(record: unknown, context: { operation?: string }, onLeaf: LeafVisitor, options: { pathOrder: true }): PathOrder | null;
export function visitRecordLeaves(record: unknown, context: { operation?: string }, onLeaf: LeafVisitor, options?: { pathOrder: true }): PathOrder | null | void {
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
  const descend = (depth: number, value: object): void => {
    // Bounds the recursion of `visit` (one frame per level): deeper input is refused, never walked.
    if (depth >= MAX_RECORD_DEPTH) throw tooDeepError(context, formatFieldPath(stack.slice(0, depth)));
    if (ancestors.has(value)) refuse(depth, value, 'a circular reference');
    ancestors.add(value);
  };
  let leaves = 0;
  // Off for good once a key could make a path compare across its siblings' subtrees (see PathOrder).
  let ordering = options?.pathOrder === true;
  const leaf = (depth: number, value: string, out: number[] | null): void => {
    onLeaf(stack, depth, paths[depth]!, value);
    if (out) out.push(leaves);
    leaves += 1;
  };
  const visit = (value: unknown, depth: number, out: number[] | null): void => {
    switch (typeof value) {
      case 'string':
        return leaf(depth, value, out);
      case 'boolean':
        return leaf(depth, value ? 'true' : 'false', out);
      case 'number':
        if (!Number.isFinite(value)) refuse(depth, value, 'not a finite number');
        return leaf(depth, JSON.stringify(value), out);
      case 'undefined':
        // Only reached for array elements and holes (members are skipped): JSON writes them as null.
        return leaf(depth, '', out);
      case 'object':
        break;
      default:
        return refuse(depth, value, `a ${typeof value}; values must be strings, finite numbers, booleans, null, arrays or plain objects`);
    }
    if (value === null) return leaf(depth, '', out);
    if (Array.isArray(value)) {
      descend(depth, value);
      // When building the order: each element's leaves as one block, then the blocks in the order of their `index]`
      // text (see PathOrder). An index loop, not forEach: holes in a sparse array are written as null by JSON, so
      // they count as "".
      const local: number[] | null = ordering && out ? [] : null;
      const starts: number[] = [];
      for (let index = 0; index < value.length; index++) {
        starts.push(local?.length ?? 0);
        visit(value[index], enter(depth, index), local);
      }
      if (local && ordering) {
        starts.push(local.length);
        for (const index of indexTextOrder(value.length)) copyBlock(out!, local, starts[index]!, starts[index + 1]!);
      }
      ancestors.delete(value);
      return;
    }
    if (!isPlainObject(value)) {
      return refuse(depth, value, `a ${describeValue(value)}; values must be strings, finite numbers, booleans, null, arrays or plain objects`);
    }
    descend(depth, value);
    // When building the order: each member's leaves as one block, then the blocks in the order of `key` plus what
    // follows it in a path.
    const local: number[] | null = ordering && out ? [] : null;
    const sortKeys: string[] = [];
    const starts: number[] = [];
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (key === ENCRYPTION_DATA || member === undefined) continue;
      if (local && ordering && !orderSafeKey(key)) ordering = false;
      const from = local?.length ?? 0;
      visit(member, enter(depth, key), local);
      if (local && local.length > from) {
        const continuation = pathContinuation(member);
        sortKeys.push(continuation === '' ? key : key + continuation);
        starts.push(from);
      }
    }
    if (local && ordering) {
      starts.push(local.length);
      const members = sortedIndexes(sortKeys);
      for (let i = 0; i < members.length; i++) copyBlock(out!, local, starts[members[i]!]!, starts[members[i]! + 1]!);
    }
    ancestors.delete(value);
  };
  if (!ordering) {
    visit(record, 0, null);
    return null;
  }
  const order: number[] = [];
  visit(record, 0, order);
  return ordering ? order : null;
}

/** Walks a record in its own key order, leaving out `encryption_data` at every level; JSON.stringify semantics otherwise. */
export function walkRecord(record: unknown, context: { operation?: string } = {}): RecordLeaf[] {
  const leaves: RecordLeaf[] = [];
  visitRecordLeaves(record, context, (stack, depth, path, value) => leaves.push({ segments: stack.slice(0, depth), path, value }));
  return leaves;
}
