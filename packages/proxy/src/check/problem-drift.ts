import { type ValidationProblem } from '@gw/types';
import type { DriftFinding } from '../report/drift-recorder.ts';
import type { DriftKind, DriftSide } from '../report/report-types.ts';
import { exampleOf, jsonType, shapeOf } from './example.ts';

const FORMAT_KEYWORDS: ReadonlySet<string> = new Set([
  'pattern',
  'format',
  'maxLength',
  'minLength',
  'minimum',
  'maximum',
  'maxItems',
  'minItems',
  'multipleOf',
  'enum',
  'const',
]);

function kindOf(keyword: string): DriftKind {
  if (keyword === 'unknown') return 'unknown-field';
  if (keyword === 'card-data') return 'card-data';
  if (keyword === 'type') return 'wrong-type';
  if (keyword === 'required') return 'missing-field';
  if (FORMAT_KEYWORDS.has(keyword)) return 'wrong-format';
  return 'undecodable';
}

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** A JSON Pointer as a field path with array indexes folded (`/capture_orders/3/amount` → `capture_orders[].amount`). */
export function foldedPath(pointer: string): string {
  let out = '';
  for (const part of segments(pointer)) {
    const name = /\d{12,}/.test(part) ? shapeOf(part) : part;
    out += /^\d+$/.test(part) ? '[]' : out ? `.${name}` : name;
  }
  return out;
}

function valueAt(record: unknown, pointer: string): unknown {
  let value = record;
  for (const part of segments(pointer)) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** One validation problem as a drift finding: its kind, folded path and a redacted example of the value. */
export function problemDrift(operation: string, side: DriftSide, record: unknown, problem: ValidationProblem): DriftFinding {
  const kind = kindOf(problem.keyword);
  let pointer = problem.pointer;
  if (kind === 'missing-field') {
    const missing = /'([^']+)'/.exec(problem.message)?.[1] ?? '';
    pointer = `${pointer}/${missing.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  const name = segments(pointer).pop() ?? '';
  const value = kind === 'missing-field' ? undefined : valueAt(record, pointer);
  const shown = kind === 'card-data' ? (typeof value === 'string' || typeof value === 'number' ? shapeOf(String(value)) : '') : exampleOf(name, value);
  return { operation, side, kind, path: foldedPath(pointer), message: problem.message, example: shown, seenType: value === undefined ? null : jsonType(value) };
}
