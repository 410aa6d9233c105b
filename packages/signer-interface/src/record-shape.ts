import { ENCRYPTION_DATA, isPlainObject, type PathOrder } from './walk-record.ts';

/**
 * The shape of a record as the signing walk sees it: each object's kept members in its own order, each array's length,
 * and where the leaves are. Two records of one shape have the same leaf paths, the same order by path and the same
 * secret leaves; only the values differ. A batch signs and verifies records of one shape over and over (50 orders of
 * the same four fields per request, 50 result elements per answer), so those are worked out once per shape.
 */
type ShapeNode = typeof LEAF | ObjectShape | ArrayShape;

const LEAF = 0;

interface ObjectShape {
  readonly keys: readonly string[];
  readonly members: readonly ShapeNode[];
}

interface ArrayShape {
  readonly items: readonly ShapeNode[];
}

/** What a shape fixes for every record of that shape: its leaves' paths, which are secret, and their order by path. */
export interface ShapeLeaves {
  readonly paths: readonly string[];
  readonly secret: readonly number[];
  readonly pathOrder: PathOrder | null;
}

interface KnownShape extends ShapeLeaves {
  readonly root: ObjectShape;
}

function isArrayShape(node: ObjectShape | ArrayShape): node is ArrayShape {
  return (node as Partial<ArrayShape>).items !== undefined;
}

/**
 * The shape of a record the full walk has already accepted (so: plain objects, no cycles, finite numbers, no deeper than
 * MAX_RECORD_DEPTH, which bounds this recursion).
 */
function shapeOf(value: unknown): ShapeNode {
  if (typeof value !== 'object' || value === null) return LEAF;
  if (Array.isArray(value)) {
    const items: ShapeNode[] = new Array(value.length);
    // An index loop: holes are leaves (JSON writes them as null), as in the walk.
    for (let i = 0; i < value.length; i++) items[i] = shapeOf(value[i]);
    return { items };
  }
  const keys: string[] = [];
  const members: ShapeNode[] = [];
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (key === ENCRYPTION_DATA || member === undefined) continue;
    keys.push(key);
    members.push(shapeOf(member));
  }
  return { keys, members };
}

/**
 * Writes the leaf values of `value` (as the walk writes them) into `values` from index `at` if it has shape `node`, and
 * returns the index after the last; -1 at the first difference, or at anything the walk would refuse (the full walk
 * then runs and says why). Terminates on cycles and recurses no deeper than the shape, itself no deeper than
 * MAX_RECORD_DEPTH: a deeper record differs from it there.
 */
function collect(value: unknown, node: ShapeNode, values: string[], at: number): number {
  if (node === LEAF) {
    switch (typeof value) {
      case 'string':
        values[at] = value;
        return at + 1;
      case 'boolean':
        values[at] = value ? 'true' : 'false';
        return at + 1;
      case 'number':
        if (!Number.isFinite(value)) return -1;
        values[at] = JSON.stringify(value);
        return at + 1;
      case 'undefined':
        values[at] = '';
        return at + 1;
      case 'object':
        if (value !== null) return -1;
        values[at] = '';
        return at + 1;
      default:
        return -1;
    }
  }
  if (typeof value !== 'object' || value === null) return -1;
  if (isArrayShape(node)) {
    if (!Array.isArray(value) || value.length !== node.items.length) return -1;
    for (let i = 0; i < value.length && at >= 0; i++) at = collect(value[i], node.items[i]!, values, at);
    return at;
  }
  if (!isPlainObject(value)) return -1;
  const { keys, members } = node;
  let member = 0;
  // for-in, not Object.keys: no array per object. It gives the own keys in Object.keys order, then any enumerable
  // inherited one (a polluted Object.prototype), which no shape has: the record then differs and the full walk runs.
  for (const key in value) {
    const item = value[key];
    if (key === ENCRYPTION_DATA || item === undefined) continue;
    if (keys[member] !== key) return -1;
    at = collect(item, members[member]!, values, at);
    if (at < 0) return -1;
    member += 1;
  }
  return member === keys.length ? at : -1;
}

const SHAPES_PER_OPERATION = 4;
const MAX_SHAPE_LEAVES = 5_000;

/** The last few shapes seen per operation (a request's and its answer's, a full and a last partial chunk), newest first. */
export class RecordShapes {
  readonly #known = new Map<string, KnownShape[]>();

  /** The leaves of `record` if it has a shape seen before for `operation`: the shape's paths and order, its own values. */
  match(operation: string, record: unknown): (ShapeLeaves & { readonly values: string[] }) | null {
    const shapes = this.#known.get(operation);
    if (shapes === undefined) return null;
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i]!;
      // Sized once to the shape's leaf count: a record of this shape fills exactly that many.
      const values: string[] = new Array(shape.paths.length);
      if (collect(record, shape.root, values, 0) !== shape.paths.length) continue;
      if (i > 0) shapes.unshift(...shapes.splice(i, 1));
      return { paths: shape.paths, secret: shape.secret, pathOrder: shape.pathOrder, values };
    }
    return null;
  }

  /** Remembers the shape of a record the full walk accepted, with the leaves it found. */
  remember(operation: string, record: object, leaves: ShapeLeaves): void {
    if (leaves.paths.length > MAX_SHAPE_LEAVES) return;
    const shapes = this.#known.get(operation) ?? [];
    shapes.unshift({ root: shapeOf(record) as ObjectShape, paths: leaves.paths, secret: leaves.secret, pathOrder: leaves.pathOrder });
    if (shapes.length > SHAPES_PER_OPERATION) shapes.pop();
    this.#known.set(operation, shapes);
  }
}
