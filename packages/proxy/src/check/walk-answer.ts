import { isSecretField, redactText } from '@gw/client';
import type { OperationSpec } from '@gw/types';
import { join, type DriftRecorder } from '../report/drift-recorder.ts';
import { exampleOf, shapeOf } from './example.ts';
import { knownValuePlaces } from './known-values.ts';
import { unknownsIdOf } from './unknowns-ids.ts';

/** Places deeper than this are not counted (the spec's answers nest a few levels). */
const MAX_DEPTH = 8;

function place(path: string, name: string): string {
  return join(path, /\d{12,}/.test(name) ? shapeOf(name) : name);
}

/** The places of each recorder's answers that held a record or a list: a group left out is absent, not missing. */
const groupPlaces = new WeakMap<DriftRecorder, Set<string>>();

/**
 * A record whose own result status says it failed (UNKNOWNS U28, U47: `1` is success), at the top (`x-gw-refusal`) or
 * as an element of the batch array: a failed order's result is shorter (the sandbox's one line for an unknown
 * order), so it is not held against the members of successful ones.
 */
function failed(op: OperationSpec, value: Record<string, unknown>, path: string): boolean {
  const field = path === '' ? op.refusal?.statusField : op.batch && path === `${op.batch.responseArray}[]` ? op.batch.statusField : undefined;
  return field !== undefined && Object.hasOwn(value, field) && value[field] !== '1';
}

/** Reports the members every earlier successful record at `path` carried and this one lacks (UNKNOWNS U05, U56). */
function reportAbsent(op: OperationSpec, value: Record<string, unknown>, path: string, recorder: DriftRecorder, reported: ReadonlySet<string>): void {
  if (failed(op, value, path)) return;
  const groups = groupPlaces.get(recorder) ?? new Set<string>();
  groupPlaces.set(recorder, groups);
  for (const name of Object.keys(value)) if (value[name] !== null && typeof value[name] === 'object') groups.add(place(path, name));
  const names = Object.keys(value).map((name) => (/\d{12,}/.test(name) ? shapeOf(name) : name));
  for (const name of recorder.recordSeen(op.name, path, names)) {
    const at = join(path, name);
    if (groups.has(at) || reported.has(at)) continue;
    recorder.drift({
      operation: op.name,
      side: 'response',
      kind: 'missing-field',
      path: at,
      message: 'is absent, though every earlier answer carried it',
      example: '',
      seenType: null,
    });
  }
}

/**
 * Walks a decoded answer: counts every place and field (UNKNOWNS U05), counts the values of fields with known values
 * (U06, U28, U30, U47) and reports new ones, and reports a field absent though present in every earlier answer
 * (unless `reported` already holds its path).
 */
export function walkAnswer(op: OperationSpec, record: Record<string, unknown>, recorder: DriftRecorder, reported: ReadonlySet<string> = new Set()): void {
  const known = knownValuePlaces(op.responseSchema);
  const stack: { value: Record<string, unknown>; path: string; depth: number }[] = [{ value: record, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    reportAbsent(op, value, path, recorder, reported);
    for (const name of Object.keys(value)) {
      const member = value[name];
      const at = place(path, name);
      if (typeof member === 'string' || typeof member === 'number') {
        const values = known.get(at);
        if (!values || isSecretField(name)) continue;
        const text = String(member);
        // A value the spec lists is a code, never card data; any other is shown as it is only if redaction leaves it so.
        const shown = values.includes(text) || redactText(text) === text ? text : shapeOf(text);
        recorder.valueSeen(op.name, at, unknownsIdOf(op, at), shown);
        // An empty value is an absent one, not a new value.
        if (text !== '' && !values.includes(text))
          recorder.drift({
            operation: op.name,
            side: 'response',
            kind: 'new-value',
            path: at,
            message: `a value the spec does not list (known: ${values.join(', ')})`,
            example: exampleOf(name, member),
            seenType: typeof member,
          });
      } else if (member && typeof member === 'object' && depth < MAX_DEPTH) {
        const items = Array.isArray(member) ? member : [member];
        const itemPath = Array.isArray(member) ? `${at}[]` : at;
        for (const item of items)
          if (item && typeof item === 'object' && !Array.isArray(item))
            stack.push({ value: item as Record<string, unknown>, path: itemPath, depth: depth + 1 });
      }
    }
  }
}
