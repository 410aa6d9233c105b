// A YAML file edited as text at places its parsed nodes give, so everything not changed stays byte for byte.
import type { YAMLMap, YAMLSeq } from 'yaml';

/** Text inserted at an offset of the original. */
export interface TextInsertion {
  readonly at: number;
  readonly text: string;
}

/** The original with every insertion made (insertions at one offset keep their order). */
export function applyInsertions(original: string, insertions: readonly TextInsertion[]): string {
  const sorted = insertions.map((insertion, order) => ({ ...insertion, order })).sort((a, b) => b.at - a.at || b.order - a.order);
  let text = original;
  for (const { at, text: inserted } of sorted) text = text.slice(0, at) + inserted + text.slice(at);
  return text;
}

/** The column of an offset (characters since the line's start). */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The offset just past the line holding `offset - 1`: where a line after a block node's last one goes. */
function lineEndAfter(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset - 1));
  return newline === -1 ? text.length : newline + 1;
}

type Ranged = { range?: [number, number, number] | null } | null | undefined;

/** Where a block collection's next entry goes and its indentation, or null for a flow one (`[a, b]`, `{a: 1}`). */
export function blockEnd(text: string, node: YAMLMap | YAMLSeq): { at: number; indent: string } | null {
  const first: unknown = node.items[0];
  if (node.flow || !node.range || !first) return null;
  // A map's entries start at their key; a sequence's items two columns after their `- `.
  const isPair = isMapEntry(first);
  const start = isPair ? (first.key as Ranged)?.range?.[0] : (first as Ranged)?.range?.[0];
  if (start === undefined) return null;
  const column = columnOf(text, start) - (isPair ? 0 : 2);
  return { at: lineEndAfter(text, node.range[1]), indent: ' '.repeat(Math.max(0, column)) };
}

function isMapEntry(value: unknown): value is { key: unknown } {
  return typeof value === 'object' && value !== null && 'key' in value;
}
