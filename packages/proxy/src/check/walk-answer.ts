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

/**
 * Walks a decoded answer: counts every place and field (UNKNOWNS U05), counts the values of fields with known values
 * (U06, U28, U30, U47) and reports new ones, and reports a field absent though present in every earlier answer.
 */
export function walkAnswer(op: OperationSpec, record: Record<string, unknown>, recorder: DriftRecorder): void {
  const known = knownValuePlaces(op.responseSchema);
  const stack: { value: Record<string, unknown>; path: string; depth: number }[] = [{ value: record, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const names = Object.keys(value).map((name) => (/\d{12,}/.test(name) ? shapeOf(name) : name));
    for (const name of recorder.recordSeen(op.name, path, names)) {
      recorder.drift({ operation: op.name, side: 'response', kind: 'missing-field', path: join(path, name), message: 'is absent, though every earlier answer carried it', example: '', seenType: null });
    }
    for (const name of Object.keys(value)) {
      const member = value[name];
      const at = place(path, name);
      if (typeof member === 'string' || typeof member === 'number') {
        const values = known.get(at);
        if (!values || isSecretField(name)) continue;
        const text = String(member);
        const shown = redactText(text) === text ? text : shapeOf(text);
        recorder.valueSeen(op.name, at, unknownsIdOf(op, at), shown);
        // An empty value is an absent one, not a new value.
        if (text !== '' && !values.includes(text)) recorder.drift({ operation: op.name, side: 'response', kind: 'new-value', path: at, message: `a value the spec does not list (known: ${values.join(', ')})`, example: exampleOf(name, member), seenType: typeof member });
      } else if (member && typeof member === 'object' && depth < MAX_DEPTH) {
        const items = Array.isArray(member) ? member : [member];
        const itemPath = Array.isArray(member) ? `${at}[]` : at;
        for (const item of items) if (item && typeof item === 'object' && !Array.isArray(item)) stack.push({ value: item as Record<string, unknown>, path: itemPath, depth: depth + 1 });
      }
    }
  }
}
