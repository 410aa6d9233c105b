import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Where in a text a JSON parse stopped: 1-based line and column. */
function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return { line, column: position - before.lastIndexOf('\n') };
}

/** The offset JSON.parse's message names (`at position 20`), or the end of the text (`Unexpected end of JSON input`). */
function failedAt(message: string, text: string): number {
  const match = /at position (\d+)/.exec(message);
  return match ? Number(match[1]) : text.length;
}

/** The 1-based line and column where JSON.parse stopped reading `text` when its message says (never the text itself). */
export function whereJsonStopped(text: string, message: string): { line: number; column: number } | null {
  if (!/at position \d+|end of JSON input/.test(message)) return null;
  return lineAndColumn(text, failedAt(message, text));
}

/**
 * Parses `text` read from `source` (a file name, or `-` for standard input) as JSON; otherwise throws a GW_VALIDATION
 * error (bad input: exit 3) that names where the text came from and the line and column where it stops being JSON.
 */
export function parseJsonInput(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const where = source === '-' ? 'standard input' : source;
    const reason = (error as Error).message.replace(/\s*\(line \d+ column \d+\)$/, '').replace(/ in JSON at position \d+$/, '');
    const { line, column } = lineAndColumn(text, failedAt((error as Error).message, text));
    const problem = text.trim() === '' ? 'is empty' : `is not valid JSON: ${reason} at line ${line}, column ${column}`;
    throw new GwError(GW_ERROR_CODES.validation, `${where} ${problem}`, { source: where, line, column, problem });
  }
}
