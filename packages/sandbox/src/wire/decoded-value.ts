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

type Note = (problem: DecodedProblem) => void;

/** A mutable stand-in for a frozen or sealed decoded container (a decoder's own output may be either). */
function unfrozen(value: object): Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return value.slice();
  return Object.setPrototypeOf(Object.fromEntries(Object.entries(value)), null) as Record<string, unknown>;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/**
 * One member of a container: `__proto__` is noted, a container is walked unless it nests too deep. Returns the value
 * the container keeps (a frozen child comes back as a mutable copy). The member's path is built only when needed.
 */
function visit(key: string | number, child: unknown, parent: string, depth: number, note: Note): unknown {
  if (key === PROTOTYPE_KEY) note({ path: childPath(parent, key), message: `${PROTOTYPE_KEY} is not a field name` });
  if (child === null || typeof child !== 'object') return child;
  if (depth >= MAX_NESTING) {
    note({ path: childPath(parent, key), message: `nests deeper than ${MAX_NESTING} levels` });
    return child;
  }
  return walk(child, childPath(parent, key), depth, note);
}

// Recursion is bounded: a container at MAX_NESTING is noted, never entered, so the walk is at most 32 calls deep.
function walk(value: object, path: string, depth: number, note: Note): object {
  const target = Object.isExtensible(value) ? value : unfrozen(value);
  if (Array.isArray(target)) {
    for (let i = 0; i < target.length; i++) {
      const child: unknown = target[i];
      const kept = visit(i, child, path, depth + 1, note);
      if (kept !== child) target[i] = kept;
    }
    return target;
  }
  // Set on the object itself, not on a copy: an object whose prototype is set to null keeps V8's fast properties, where
  // Object.create(null) gives a dictionary that every later read (validation, signing text, the answer) pays for.
  if (Object.getPrototypeOf(target) !== null) Object.setPrototypeOf(target, null);
  const record = target as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = record[key];
    const kept = visit(key, child, path, depth + 1, note);
    if (kept !== child) record[key] = kept;
  }
  return target;
}

/**
 * Makes a freshly decoded JSON value (JSON.parse's, or a decoder's) safe to hand to handlers, in place: every object
 * gets a null prototype (arrays stay arrays), every member named `__proto__` and every place nested deeper than
 * MAX_NESTING is listed. A frozen or sealed container is replaced by a copy. `depth` is the nesting of `value` itself
 * (1 for a form member's JSON text, which sits inside the record).
 */
export function secureDecoded(value: unknown, path = '', depth = 0): { value: unknown; problems: DecodedProblem[] } {
  if (value === null || typeof value !== 'object') return { value, problems: [] };
  const problems: DecodedProblem[] = [];
  const note: Note = (problem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  if (depth >= MAX_NESTING) {
    note({ path, message: `nests deeper than ${MAX_NESTING} levels` });
    return { value, problems };
  }
  return { value: walk(value, path, depth, note), problems };
}
