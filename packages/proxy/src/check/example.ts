import { redactText } from '@gw/client';
import { namesCardData } from '@gw/types';
import { shapeOf } from '../redact/report-redaction.ts';

/** Longest example text kept in a report. */
const EXAMPLE_CHARS = 120;

export { shapeOf } from '../redact/report-redaction.ts';

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
    if (namesCardData(name)) return shapeOf(text);
    return cut(redactText(text) === text ? JSON.stringify(value) : JSON.stringify(shapeOf(text)));
  }
  if (value && typeof value === 'object') {
    const names = Array.isArray(value)
      ? `[${value.length} items]`
      : `{${Object.keys(value)
          .map((n) => (/\d{12,}/.test(n) ? shapeOf(n) : n))
          .join(', ')}}`;
    return cut(names);
  }
  return String(value);
}
