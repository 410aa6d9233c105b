/** A member's text: the value when it is a string, '' otherwise (absent, a number, an object). */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
