import { generatedHeader } from './header.ts';
import type { LoadedSpec, SpecDocument } from './spec.ts';
import { collectSecretFields, type OperationRow } from './tables.ts';

/** A generated TypeScript module: its header, then its body. */
export function tsModule(header: string, body: string): string {
  return `${header}\n${body.trimEnd()}\n`;
}

/** A value as the generated modules write it: indented JSON. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

const TABLES_HEADER = generatedHeader('x-gw tables');

/** `@gw/types`' operations.gen.ts: the operation table, the request and response type of each, and the secret fields. */
export function operationsModule(doc: SpecDocument, rows: readonly OperationRow[]): string {
  const table = Object.fromEntries(rows.map((r) => [r.name, r]));
  const recordTypes = rows.map((r) => `  ${r.name}: { request: T.${r.requestSchema}; response: T.${r.responseSchema} };`).join('\n');
  return tsModule(
    TABLES_HEADER,
    [
      "import type { OperationSpec } from '../operation-spec.ts';",
      "import type * as T from './types.gen.ts';",
      '',
      '/** Every client-level operation: path, encodings, signature, retry class and batch limits, from the x-gw extensions. */',
      `export const operations = ${json(table)} as const satisfies Record<string, OperationSpec>;`,
      '',
      '/** The name of a client-level operation (`capture`, `authoriseCard`, ...). */',
      'export type OperationName = keyof typeof operations;',
      '',
      '/** The request and decoded response record of each operation. */',
      'export interface OperationRecords {',
      recordTypes,
      '}',
      '',
      '/** Fields marked x-gw-secret (card number, security code, expiry): never logged, never in an error. */',
      `export const secretFields = ${json(collectSecretFields(doc))} as const;`,
    ].join('\n'),
  );
}

/** `@gw/types`' spec-schemas.gen.ts: the spec's component schemas as one JSON Schema document. */
export function specSchemasModule(specSchemas: Record<string, unknown>): string {
  return tsModule(
    TABLES_HEADER,
    `/** The spec's component schemas as one JSON Schema 2020-12 document: the source of request validation. */\nexport const specSchemas: Record<string, unknown> = ${json(specSchemas)};`,
  );
}

/** `@gw/types`' wire-defaults.gen.ts: the checkout form's catalogue and the defaults of points the seed does not show. */
export function wireDefaultsModule(doc: SpecDocument): string {
  return tsModule(
    TABLES_HEADER,
    [
      '/** The hidden-field catalogue of the checkout page (seed 2.4). */',
      `export const checkoutForm = ${json(doc['x-gw-checkout-form'] ?? null)} as const;`,
      '',
      '/** Default root element of the XML request body of /v1/cancelsubscription (not shown by the seed). */',
      `export const xmlRequestRoot = ${json(doc['x-gw-xml-request-root'] ?? 'request')} as const;`,
      '',
      '/** Default form fields that select orders in /v1/retrievalTrans (not shown by the seed). */',
      `export const querySelection = ${json(doc['x-gw-query-selection'] ?? null)} as const;`,
    ].join('\n'),
  );
}

/** `@gw/types`' manifest.gen.ts: what the generated files came from (the spec's hash, the generators' versions). */
export function manifestModule(spec: LoadedSpec, generators: Readonly<Record<string, string>>): string {
  const root = spec.doc;
  return tsModule(
    TABLES_HEADER,
    `import type { SpecManifest } from '../spec-manifest.ts';\n\n/** What the generated files came from: the spec text's hash and the generators' versions. */\nexport const specManifest: SpecManifest = ${json(
      {
        spec: 'spec/v1/openapi.yaml',
        specSha256: spec.sha256,
        openapi: root.openapi,
        title: root.info?.title,
        version: root.info?.version,
        generators,
      },
    )};`,
  );
}

/** `@gw/client`'s methods.gen.ts under the tables' header. */
export function tablesModule(body: string): string {
  return tsModule(TABLES_HEADER, body);
}
