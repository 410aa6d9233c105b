import { isSecretField, redactText } from '@gw/client';

/** Longest example text kept in a report. */
const EXAMPLE_CHARS = 120;

/** A value's shape without its value: digits become 9, letters a or A, everything else stays (`4111-…` → `9999-…`). */
export function shapeOf(text: string): string {
  return text.replace(/\d/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A');
}

/** The JSON type name of a value (`array` and `null` told apart from `object`). */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function cut(text: string): string {
  return text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}…` : text;
}

/**
 * The example of a value for a report: a card-data field (by name) or anything holding a card-number-like digit run
 * keeps its shape only; other values are written as JSON, cut short. Objects are shown by their member names.
 */
export function exampleOf(name: string, value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    if (isSecretField(name)) return shapeOf(text);
    return cut(redactText(text) === text ? JSON.stringify(value) : JSON.stringify(shapeOf(text)));
  }
  if (value && typeof value === 'object') {
    const names = Array.isArray(value) ? `[${value.length} items]` : `{${Object.keys(value).map((n) => (/\d{12,}/.test(n) ? shapeOf(n) : n)).join(', ')}}`;
    return cut(names);
  }
  return String(value);
}
