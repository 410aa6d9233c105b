import type { PathSegment } from '../walk-record.ts';

type Container = Record<string, unknown> | unknown[];

/** A deep copy of a JSON-like record. */
export function cloneRecord<T>(record: T): T {
  return structuredClone(record);
}

/** The value at `segments`, or undefined. */
export function valueAt(record: object, segments: readonly PathSegment[]): unknown {
  let node: unknown = record;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

// Copies only the containers along the path; the rest is shared, which is safe because edits never mutate it.
function copyAlong(record: object, segments: readonly PathSegment[]): { copy: object; parent: Container; last: PathSegment } {
  const last = segments.at(-1);
  if (last === undefined) throw new Error('a record edit needs a non-empty path');
  const shallow = (node: unknown): Container => {
    if (Array.isArray(node)) return [...(node as unknown[])];
    if (node !== null && typeof node === 'object') return { ...(node as Record<string, unknown>) };
    throw new Error('a record edit needs an existing parent');
  };
  const copy = shallow(record);
  let parent: Container = copy;
  for (const segment of segments.slice(0, -1)) {
    const child = shallow((parent as Record<string | number, unknown>)[segment]);
    (parent as Record<string | number, unknown>)[segment] = child;
    parent = child;
  }
  return { copy, parent, last };
}

/** A copy of the record with the value at `segments` set (added when absent). */
export function withValueAt(record: object, segments: readonly PathSegment[], value: unknown): object {
  const { copy, parent, last } = copyAlong(record, segments);
  (parent as Record<string | number, unknown>)[last] = value;
  return copy;
}

/** A copy of the record without the member or array element at `segments`. */
export function withoutValueAt(record: object, segments: readonly PathSegment[]): object {
  const { copy, parent, last } = copyAlong(record, segments);
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else delete (parent as Record<string, unknown>)[String(last)];
  return copy;
}

function otherCharacter(character: string): string {
  return character === '0' ? '1' : '0';
}

/** Values that differ from `original` by as little as possible: one character, one unit, one flag. */
export function alteredValues(original: unknown): unknown[] {
  if (typeof original === 'number') return [original + 1 !== original ? original + 1 : original / 2];
  if (typeof original === 'boolean') return [!original];
  if (typeof original !== 'string' || original === '') return ['0'];
  const characters = [...original];
  const lastChanged = [...characters.slice(0, -1), otherCharacter(characters.at(-1) ?? '')].join('');
  if (characters.length === 1) return [lastChanged];
  const firstChanged = [otherCharacter(characters[0] ?? ''), ...characters.slice(1)].join('');
  return [firstChanged, lastChanged];
}

/** Every array in the record with its location, outermost first. */
export function arraysIn(record: object): { segments: PathSegment[]; array: unknown[] }[] {
  const found: { segments: PathSegment[]; array: unknown[] }[] = [];
  const visit = (node: unknown, segments: PathSegment[]): void => {
    if (Array.isArray(node)) {
      found.push({ segments, array: node });
      node.forEach((element: unknown, index) => visit(element, [...segments, index]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) if (key !== 'encryption_data') visit(value, [...segments, key]);
    }
  };
  visit(record, []);
  return found;
}

/** Every plain object below the root, with its location. */
export function objectsIn(record: object): { segments: PathSegment[]; object: Record<string, unknown> }[] {
  const found: { segments: PathSegment[]; object: Record<string, unknown> }[] = [];
  const visit = (node: unknown, segments: PathSegment[]): void => {
    if (Array.isArray(node)) node.forEach((element: unknown, index) => visit(element, [...segments, index]));
    else if (node !== null && typeof node === 'object') {
      if (segments.length > 0) found.push({ segments, object: node as Record<string, unknown> });
      for (const [key, value] of Object.entries(node)) if (key !== 'encryption_data') visit(value, [...segments, key]);
    }
  };
  visit(record, []);
  return found;
}
