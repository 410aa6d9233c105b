// spec/v1/examples/<operation>.request.json and .response.json: a request and an answer for every operation. A
// missing one is written from the spec (the operation's media-type example, completed from its schema) for a person to
// refine; an existing one is never overwritten.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { completeExample, SchemaReader } from './examples.ts';
import { loadSpec, type SpecDocument } from './spec.ts';
import { buildOperationRows, type OperationRow } from './tables.ts';

/** Filled by the signing step, never part of an example the generator writes. */
const SIGNATURE_FIELD = 'encryption_data';

/** The request and answer examples of one operation, and the example files the spec folder lacks. */
export interface OperationExamples {
  readonly request: Record<string, unknown>;
  readonly response: Record<string, unknown>;
}

/** An example file to write: where, and its text. */
export interface MissingExample {
  readonly path: string;
  readonly text: string;
}

/** The folder of the example files: `examples/` next to the spec. */
export function examplesDir(specPath: string): string {
  return join(dirname(specPath), 'examples');
}

// The media-type example of an operation's request or 200 answer (`example`, or the first of `examples`), when the
// operation has one variant (a path with two variants has two shapes, which one media type cannot show).
function mediaExample(doc: SpecDocument, row: OperationRow, kind: 'request' | 'response'): unknown {
  const operation = doc.paths?.[row.path]?.post ?? {};
  if ((operation['x-gw-variants'] ?? []).length !== 1) return undefined;
  const content = kind === 'request' ? operation.requestBody?.content : operation.responses?.['200']?.content;
  const media = Object.values<any>(content ?? {})[0] ?? {};
  if (media.example !== undefined) return media.example;
  const first = Object.values<any>(media.examples ?? {})[0];
  return first?.value;
}

function fileExample(path: string): unknown {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * The examples of every operation: each file's content where it exists, otherwise one built from the spec (listed in
 * `missing`, to be written by `pnpm generate`).
 */
export function readOperationExamples(
  specPath: string,
  doc: SpecDocument,
  rows: readonly OperationRow[],
): { examples: Map<string, OperationExamples>; missing: MissingExample[] } {
  const reader = new SchemaReader(doc);
  const skip = new Set([SIGNATURE_FIELD]);
  const examples = new Map<string, OperationExamples>();
  const missing: MissingExample[] = [];
  for (const row of rows) {
    const pair = { request: {}, response: {} } as Record<'request' | 'response', Record<string, unknown>>;
    for (const kind of ['request', 'response'] as const) {
      const path = join(examplesDir(specPath), `${row.name}.${kind}.json`);
      const onDisk = fileExample(path);
      if (onDisk !== undefined) {
        pair[kind] = onDisk as Record<string, unknown>;
        continue;
      }
      const schema = { $ref: `#/components/schemas/${kind === 'request' ? row.requestSchema : row.responseSchema}` };
      const built = completeExample(reader, schema, mediaExample(doc, row, kind) ?? {}, { skip }) as Record<string, unknown>;
      pair[kind] = built;
      missing.push({ path, text: `${JSON.stringify(built, null, 2)}\n` });
    }
    examples.set(row.name, pair);
  }
  return { examples, missing };
}

function withoutNames(value: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((element) => withoutNames(element, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !names.has(name))
      .map(([name, member]) => [name, withoutNames(member, names)]),
  );
}

/**
 * Each operation's answer as the spec shows it: its response example completed from the response schema (members it
 * lacks get the values the spec shows for them), without the signature and card data, which the sandbox never copies.
 */
export function answerExamples(
  doc: SpecDocument,
  rows: readonly OperationRow[],
  examples: ReadonlyMap<string, OperationExamples>,
  secretFields: readonly string[],
): Record<string, unknown> {
  const reader = new SchemaReader(doc);
  const skip = new Set([SIGNATURE_FIELD, ...secretFields]);
  return Object.fromEntries(
    rows.map((row) => [
      row.name,
      completeExample(reader, { $ref: `#/components/schemas/${row.responseSchema}` }, withoutNames(examples.get(row.name)!.response, skip), { skip }),
    ]),
  );
}

/** The example files the spec folder lacks, each with the text `pnpm generate` would write. */
export function missingExamples(specPath: string): MissingExample[] {
  const { doc } = loadSpec(specPath);
  return readOperationExamples(specPath, doc, buildOperationRows(doc)).missing;
}

/** Writes the example files the spec folder lacks (never one that exists); returns their paths. */
export function writeMissingExamples(specPath: string): string[] {
  const missing = missingExamples(specPath);
  for (const { path, text } of missing) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { flag: 'wx' });
  }
  return missing.map(({ path }) => path);
}
