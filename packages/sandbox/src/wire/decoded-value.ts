// Every decoded request value passes through here once: nothing after it walks input deeper than MAX_NESTING, and no
// decoded object has a prototype a handler could read members from that the signature did not cover (UNKNOWNS U51).

/** How deep a request may nest objects and arrays (the spec's records nest at most four levels). */
export const MAX_NESTING = 32;

/** A member name the sandbox refuses at every level: it is no field, and it is how a record's prototype is reached. */
const PROTOTYPE_KEY = '__proto__';

/** At most this many problems are reported for one body: enough to fix it, never a body-sized answer. */
const MAX_PROBLEMS = 20;

/** One problem of a decoded body, as the structured 400 answer lists it. */
export interface DecodedProblem {
  readonly path: string;
  readonly message: string;
}

interface Pending {
  readonly source: unknown;
  readonly target: Record<string, unknown> | unknown[];
  readonly key: string | number;
  readonly path: string;
  readonly depth: number;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

function emptyCopy(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>(value.length) : (Object.create(null) as Record<string, unknown>);
}

/**
 * Copies a decoded JSON value into objects without a prototype, iteratively (an explicit stack, no recursion), and
 * lists every member named `__proto__` and every place nested deeper than MAX_NESTING. `depth` is the nesting of
 * `value` itself (1 for a form member's JSON text, which sits inside the record).
 */
export function copyDecoded(value: unknown, path = '', depth = 0): { value: unknown; problems: DecodedProblem[] } {
  if (value === null || typeof value !== 'object') return { value, problems: [] };
  const problems: DecodedProblem[] = [];
  const note = (problem: DecodedProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  const root = emptyCopy(value);
  const stack: Pending[] = [];
  const open = (source: object, target: Record<string, unknown> | unknown[], at: string, level: number) => {
    const entries: [string | number, unknown][] = Array.isArray(source) ? source.map((v, i) => [i, v]) : Object.entries(source);
    // Pushed last to first, so members are visited (and problems listed) in their order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      stack.push({ source: child, target, key, path: childPath(at, key), depth: level + 1 });
    }
  };
  if (depth >= MAX_NESTING) note({ path, message: `nests deeper than ${MAX_NESTING} levels` });
  else open(value, root, path, depth);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.key === PROTOTYPE_KEY) note({ path: item.path, message: `${PROTOTYPE_KEY} is not a field name` });
    const { source } = item;
    if (source === null || typeof source !== 'object') {
      (item.target as Record<string | number, unknown>)[item.key] = source;
      continue;
    }
    if (item.depth >= MAX_NESTING) {
      note({ path: item.path, message: `nests deeper than ${MAX_NESTING} levels` });
      continue;
    }
    const copy = emptyCopy(source);
    (item.target as Record<string | number, unknown>)[item.key] = copy;
    open(source, copy, item.path, item.depth);
  }
  return { value: root, problems };
}
