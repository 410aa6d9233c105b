import { parseDocument, type Document, type YAMLMap } from 'yaml';
import type { DriftEntry, DriftReport } from '../report/report-types.ts';
import { componentSchema, knownValuesAt, operationSchema, propertyMaps, schemaAt } from './schema-place.ts';
import type { SkippedDrift, SpecChange, SpecPatch } from './spec-patch-types.ts';
import { applyInsertions, blockEnd, type TextInsertion } from './text-edits.ts';

/** JSON types a new field can be given; `undefined` for one no value was seen of. */
const SCHEMA_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: ['type: string'],
  number: ['type: number'],
  boolean: ['type: boolean'],
  object: ['type: object'],
  array: ['type: array', 'items: {}'],
  null: ["type: 'null'"],
};

/** What a patch is built from: the spec document and text, the report, and the edits so far. */
interface PatchWork {
  readonly text: string;
  readonly doc: Document;
  readonly report: DriftReport;
  readonly insertions: TextInsertion[];
  readonly changes: SpecChange[];
  readonly skipped: SkippedDrift[];
  /** Names added to each properties map (two operations sharing a schema add a field once). */
  readonly added: Map<YAMLMap, Set<string>>;
}

function skip(work: PatchWork, entry: { operation: string; side: 'request' | 'response'; kind: string; path: string }, reason: string): void {
  work.skipped.push({ operation: entry.operation, side: entry.side, kind: entry.kind, path: entry.path, reason });
}

/** The parent place and member name of a field path (`a[].b` → `a[]`, `b`). */
function splitPath(path: string): { parent: string; name: string } {
  const dot = path.lastIndexOf('.');
  return { parent: dot === -1 ? '' : path.slice(0, dot), name: path.slice(dot + 1) };
}

function rootOf(work: PatchWork, operation: string): { name: string; node: YAMLMap } | null {
  const name = operationSchema(work.doc, operation, 'response');
  const node = name ? componentSchema(work.doc, name) : null;
  return name && node ? { name, node } : null;
}

/** The component schema whose text holds a node, for the change list (a shared one changes for every user). */
function schemaNameOf(doc: Document, node: { range?: [number, number, number] | null }): string {
  const schemas = doc.getIn(['components', 'schemas'], true) as YAMLMap | undefined;
  const at = node.range?.[0] ?? -1;
  for (const pair of schemas?.items ?? []) {
    const range = (pair.value as { range?: [number, number, number] } | null)?.range;
    if (range && at >= range[0] && at < range[2]) return String((pair.key as { value?: unknown }).value);
  }
  return '(inline)';
}

function addField(work: PatchWork, entry: DriftEntry): void {
  const root = rootOf(work, entry.operation);
  if (!root) return skip(work, entry, 'the spec has no response schema for this operation');
  const { parent, name } = splitPath(entry.path);
  const place = schemaAt(work.doc, root.node, parent);
  const properties = place ? propertyMaps(work.doc, place)[0] : undefined;
  const lines = entry.seenType ? SCHEMA_OF_TYPE[entry.seenType] : undefined;
  if (!properties || !lines)
    return skip(work, entry, properties ? 'no value was seen to give it a type' : `the spec has no object at ${parent || 'the top'} to add it to`);
  const added = work.added.get(properties) ?? new Set<string>();
  work.added.set(properties, added);
  if (added.has(name)) return;
  if (propertyMaps(work.doc, place!).some((map) => map.has(name))) return skip(work, entry, 'the spec already lists a member of that name here');
  const end = blockEnd(work.text, properties);
  if (!end) return skip(work, entry, 'its properties are written in flow style; add it by hand');
  added.add(name);
  const seen = work.report.observations[entry.operation]?.fields[entry.path];
  const share = seen ? `${seen.present} of ${seen.places} answers` : `${entry.count} answer(s)`;
  const description = `Seen by gw proxy in ${share} (first ${entry.firstSeen}); not in the interface document. Proposed by gw spec drift --patch: review its meaning, type and whether it is always present.`;
  const inner = `${end.indent}  `;
  const text = [`${end.indent}${name}:`, ...lines.map((l) => `${inner}${l}`), `${inner}description: ${JSON.stringify(description)}`].join('\n');
  work.insertions.push({ at: end.at, text: `${text}\n` });
  work.changes.push({ kind: 'new-field', operation: entry.operation, schema: schemaNameOf(work.doc, properties), path: entry.path, value: entry.seenType! });
}

function addKnownValues(work: PatchWork, operation: string, path: string, counts: Readonly<Record<string, number>>): void {
  const where = { operation, side: 'response' as const, kind: 'new-value', path };
  const root = rootOf(work, operation);
  const place = root ? schemaAt(work.doc, root.node, path) : null;
  const list = place ? knownValuesAt(work.doc, place) : null;
  if (!root || !list) return skip(work, where, 'the spec has no x-gw-known-values at this place');
  const known = new Set(list.items.map((item) => String((item as { value?: unknown }).value)));
  const fresh = Object.keys(counts).filter((v) => v !== '' && !known.has(v) && !/^9{12,}$/.test(v) && v !== '(other values)');
  if (fresh.length === 0) return;
  const end = blockEnd(work.text, list);
  if (!end) return skip(work, where, 'its known values are written in flow style; add them by hand');
  for (const value of fresh) {
    work.insertions.push({ at: end.at, text: `${end.indent}- ${JSON.stringify(value)}\n` });
    work.changes.push({ kind: 'known-value', operation, schema: schemaNameOf(work.doc, list), path, value });
  }
}

/**
 * A proposed copy of the spec (`spec/v1/openapi.yaml` text) from a drift report, for a person to review: every field an
 * answer carried that the spec does not list becomes an optional property with the JSON type seen, and every value seen
 * in a field with `x-gw-known-values` that the list lacks is added to it. Everything else of the text stays byte for
 * byte; request-side drift and the other kinds are listed as skipped (they say what a caller sent, or need a person).
 */
export function proposeSpecPatch(specText: string, report: DriftReport): SpecPatch {
  const work: PatchWork = { text: specText, doc: parseDocument(specText), report, insertions: [], changes: [], skipped: [], added: new Map() };
  for (const entry of report.drift) {
    if (entry.side === 'response' && entry.kind === 'unknown-field') addField(work, entry);
    else if (entry.kind !== 'new-value')
      skip(
        work,
        entry,
        entry.side === 'request' ? 'request drift says what a caller sent, not what the gateway does' : `${entry.kind} needs a person's judgement`,
      );
  }
  for (const [operation, seen] of Object.entries(report.observations)) {
    for (const [path, place] of Object.entries(seen.values)) addKnownValues(work, operation, path, place.counts);
  }
  return { text: applyInsertions(specText, work.insertions), changes: work.changes, skipped: work.skipped };
}
