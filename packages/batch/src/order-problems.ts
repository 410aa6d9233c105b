import { MAX_ORDER_LINE_BYTES } from './checked-text.ts';
import { OrderSourceError } from './errors.ts';

const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const FORBIDDEN = new Set(['__proto__']);

/** A column or member name as it may be printed: names that look like data (digits, long text) are not echoed. */
export function safeName(name: string): string {
  return SAFE_NAME.test(name) ? `"${name}"` : 'a name that is not an identifier';
}

/** Every problem of a CSV header row (empty, duplicate or forbidden names). */
export function headerProblems(names: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === '') problems.push(`has no name for column ${i + 1}`);
    else if (FORBIDDEN.has(name)) problems.push(`names column ${i + 1} "__proto__", which cannot be a field`);
    else if (seen.has(name)) problems.push(`names ${safeName(name)} twice (column ${i + 1})`);
    seen.add(name);
  });
  return problems;
}

const CSV_ADVICE: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed; end it with a double quote',
  CSV_INVALID_CLOSING_QUOTE: 'characters follow the closing quote of a field; write a quote inside a quoted field as two ("")',
  INVALID_OPENING_QUOTE: 'a field that is not quoted holds a double quote; quote the whole field and double the quote inside ("a""b")',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'characters follow the closing quote of a field; write a quote inside a quoted field as two ("")',
  CSV_MAX_RECORD_SIZE: `the row is longer than ${MAX_ORDER_LINE_BYTES} bytes; an order fits in far less`,
};

/** The typed error for anything the CSV reader threw (its own messages may quote the row, so they are not reused). */
export function csvProblem(error: unknown, name: string, line: (reported: number) => number): unknown {
  if (error instanceof OrderSourceError) return error;
  const { code, lines } = (error ?? {}) as { code?: unknown; lines?: unknown };
  if (typeof code !== 'string') return error;
  return new OrderSourceError(name, typeof lines === 'number' ? line(lines) : null, CSV_ADVICE[code] ?? `not valid CSV (${code})`);
}

/** The order on a JSONL line, or a sentence naming every problem with it (never quoting its values). */
export function jsonlProblems(line: string): Record<string, string> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const column = /position (\d+)/.exec((error as Error).message);
    return `not valid JSON${column ? ` (column ${Number(column[1]) + 1})` : ''}; write one JSON object per line`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'not a JSON object; write one object per line, e.g. {"order_no":"A1","amount":"10.00"}';
  const problems: string[] = [];
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (FORBIDDEN.has(key)) problems.push('member "__proto__" cannot be a field');
    else if (typeof member !== 'string')
      problems.push(
        `member ${safeName(key)} is ${member === null ? 'null' : Array.isArray(member) ? 'an array' : `a ${typeof member}`}; order fields are text, e.g. "10.00"`,
      );
  }
  if (problems.length === 0) return value as Record<string, string>;
  const shown = problems.slice(0, 5);
  return `${shown.join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`;
}
