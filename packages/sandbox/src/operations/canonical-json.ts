// A record's text with every object's members in code-point order: two requests with the same parameters in another
// member order have the same text. Iterative (an explicit stack of pending pieces), so any nesting is safe.

/** A piece of output text waiting on the stack, told apart from a value still to encode. */
class Piece {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** The JSON text of `value` with object members sorted by name (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Piece) out.push(item.text);
    else if (item === null || typeof item !== 'object') out.push(JSON.stringify(item) ?? 'null');
    else if (Array.isArray(item)) {
      // Pushed last to first: popped in order.
      stack.push(new Piece(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i]);
        if (i > 0) stack.push(new Piece(','));
      }
      stack.push(new Piece('['));
    } else {
      const keys = Object.keys(item).sort();
      stack.push(new Piece('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((item as Record<string, unknown>)[keys[i]!], new Piece(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`));
      }
      stack.push(new Piece('{'));
    }
  }
  return out.join('');
}
