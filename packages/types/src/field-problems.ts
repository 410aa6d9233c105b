import { isCardDataField } from './card-data.ts';
import { closestName } from './closest-name.ts';
import { shapeOf, type FieldShape } from './known-fields.ts';
import { pointerToField } from './pointer.ts';
import type { ValidationProblem } from './validation-error.ts';

/** Deepest nesting of objects and arrays a record may have; the spec's records nest a few levels. */
export const MAX_RECORD_DEPTH = 32;
/** Most problems of this walk listed one by one; the rest are counted in a last problem. */
const MAX_LISTED = 1000;

/** What to do with member names the spec does not list: `refuse` (the default) or `allow` (sent or accepted as they are). */
export type UnknownFieldPolicy = 'refuse' | 'allow';

function escapePointer(name: string): string {
  // A name is shown, never a value: a name shaped like a card number is redacted, a huge one cut short.
  const shown = /\d{12,}/.test(name) ? '[redacted]' : name.length > 100 ? `${name.slice(0, 100)}…` : name;
  return shown.replaceAll('~', '~0').replaceAll('/', '~1');
}

interface Frame {
  readonly value: object;
  readonly shape: FieldShape | null;
  /** The JSON Pointer of the parent and the member name or index, joined only when a problem is reported. */
  readonly parent: Frame | null;
  readonly name: string;
  readonly depth: number;
  /** Set on the second visit, once every member has been walked: the object leaves the current path. */
  exit: boolean;
}

/** The JSON Pointer of a frame's member: built only for a problem, so a valid record builds no strings. */
function pointerOf(frame: Frame | null, name?: string): string {
  const parts: string[] = name === undefined ? [] : [name];
  for (let f = frame; f && f.parent; f = f.parent) parts.push(f.name);
  return parts
    .reverse()
    .map((part) => `/${escapePointer(part)}`)
    .join('');
}

/** The object's member names when none of its members is an object or array (a flat object), else null. */
function flatNames(value: object): string[] | null {
  const names = Object.keys(value);
  for (const name of names) {
    const member = (value as Record<string, unknown>)[name];
    if (member !== null && typeof member === 'object') return null;
  }
  return names;
}

/**
 * Reports the member names (an object's own) the spec does not list at its place (`shape`) and card data where it
 * does not belong; returns the names whose values are to be walked (every name but card data's).
 */
function checkNames(
  names: string[],
  shape: FieldShape | null,
  pointer: (name: string) => string,
  report: (pointer: string, keyword: string, message: string) => void,
  schemaName: string,
  policy: UnknownFieldPolicy,
): string[] {
  // The usual case: every name is listed here, so all of them are walked on.
  if (shape && names.every((name) => shape.members.has(name))) return names;
  const walked: string[] = [];
  for (const name of names) {
    const member = shape?.members.get(name);
    if (member === undefined && isCardDataField(name)) {
      report(
        pointer(name),
        'card-data',
        `is card data (card number, security code or expiry), which ${schemaName} does not carry here; it is never sent or accepted here`,
      );
      continue;
    }
    if (member === undefined && shape && !shape.open && shape.members.size > 0 && policy === 'refuse') {
      const guess = closestName(name, shape.members.keys());
      report(pointer(name), 'unknown', `is not a field the spec lists here${guess ? `; did you mean \`${guess}\`?` : ''}`);
    }
    walked.push(name);
  }
  return walked;
}

/**
 * The problems of a record's structure against a named schema, found by one iterative walk (no recursion): names the
 * spec does not list there (with the closest known name), card data where the schema does not carry it (whatever the
 * policy), nesting deeper than MAX_RECORD_DEPTH, and a record that contains itself. Never a value.
 */
export function fieldProblems(schemaName: string, record: unknown, policy: UnknownFieldPolicy = 'refuse'): ValidationProblem[] {
  if (record === null || typeof record !== 'object') return [];
  const out: ValidationProblem[] = [];
  let unlisted = 0;
  const report = (pointer: string, keyword: string, message: string): void => {
    if (out.length < MAX_LISTED) out.push({ pointer, field: pointerToField(pointer), keyword, message });
    else unlisted += 1;
  };
  const onPath = new Set<object>();
  const done = new Set<object>();
  const stack: Frame[] = [{ value: record, shape: shapeOf(schemaName), parent: null, name: '', depth: 1, exit: false }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.exit) {
      onPath.delete(frame.value);
      done.add(frame.value);
      continue;
    }
    if (frame.depth > MAX_RECORD_DEPTH) {
      report(pointerOf(frame), 'depth', `nests objects or arrays more than ${MAX_RECORD_DEPTH} levels deep; no field of the spec is that deep`);
      continue;
    }
    onPath.add(frame.value);
    frame.exit = true;
    stack.push(frame);
    const push = (child: unknown, shape: FieldShape | null, name: string): void => {
      if (child === null || typeof child !== 'object' || done.has(child)) return;
      if (onPath.has(child)) report(pointerOf(frame, name), 'cycle', 'contains the record it is part of (a cycle), which cannot be sent');
      // A flat object (no member is an object: a batch's order) is checked here, with no frame and no cycle sets: it
      // can be on no path, and walking it again where it appears twice costs no more than a lookup.
      else {
        const flat = frame.depth < MAX_RECORD_DEPTH && !Array.isArray(child) ? flatNames(child) : null;
        if (flat) checkNames(flat, shape, (member) => `${pointerOf(frame, name)}/${escapePointer(member)}`, report, schemaName, policy);
        else stack.push({ value: child, shape, parent: frame, name, depth: frame.depth + 1, exit: false });
      }
    };
    if (Array.isArray(frame.value)) {
      const items = frame.shape?.items ?? null;
      for (let i = 0; i < frame.value.length; i++) push(frame.value[i], items, String(i));
      continue;
    }
    const shape = frame.shape;
    const value = frame.value as Record<string, unknown>;
    const pointer = (name: string): string => pointerOf(frame, name);
    for (const name of checkNames(Object.keys(value), shape, pointer, report, schemaName, policy)) push(value[name], shape?.members.get(name) ?? null, name);
  }
  if (unlisted > 0) out.push({ pointer: '', field: '', keyword: 'more', message: `and ${unlisted} more problems of the same kinds` });
  return out;
}
