/** Writes one object's members (or one array's items) into its copy, taking each member's copy from `copyOf`. */
export type FillCopy = (source: object, target: unknown[] | Record<string, unknown>, copyOf: (member: unknown) => unknown) => void;

/**
 * A copy of a record graph made with an explicit stack, not recursion: a record from a caller or an answer may be
 * nested any depth. A record seen before (a cycle, or shared) gets the same copy, so the walk always ends.
 */
export function copyRecordGraph(value: unknown, fill: FillCopy): unknown {
  if (value === null || typeof value !== 'object') return value;
  const copies = new Map<object, unknown[] | Record<string, unknown>>();
  const stack: object[] = [];
  const copyOf = (member: unknown): unknown => {
    if (member === null || typeof member !== 'object') return member;
    let copy = copies.get(member);
    if (!copy) {
      copies.set(member, (copy = Array.isArray(member) ? [] : {}));
      stack.push(member);
    }
    return copy;
  };
  const root = copyOf(value);
  while (stack.length > 0) {
    const source = stack.pop()!;
    fill(source, copies.get(source)!, copyOf);
  }
  return root;
}
