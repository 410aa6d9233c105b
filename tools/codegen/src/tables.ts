// The walker's own source, not the built @gw/types: codegen writes that package's generated files (see examples.ts).
import { SchemaWalker, type SchemaNode } from '../../../packages/types/src/schema/schema-walker.ts';
import type { SpecDocument } from './spec.ts';

const REQUEST_ENCODINGS = ['json', 'form', 'xml'];
const RESPONSE_ENCODINGS = ['json', 'xml', 'html'];
const SIGNATURES = ['required', 'if-present', 'none'];
const RETRY_CLASSES = ['safe', 'money-moving'];

/** One client-level operation as the generated table states it. */
export interface OperationRow {
  name: string;
  operationId: string;
  method: 'POST';
  path: string;
  requestEncoding: string;
  requestEncodingDeclared: boolean;
  requestMediaType: string;
  responseEncoding: string;
  responseMediaType: string;
  signed: boolean;
  responseSignature: string;
  ipAllowListed: boolean;
  retryClass: string;
  batch: null | {
    array: string;
    responseArray: string;
    limit: number;
    statusField: string;
    errorField: string | null;
    separator: string | null;
  };
  refusal: null | { statusField: string; messageField: string };
  requestSchema: string;
  responseSchema: string;
  xmlRoot: string | null;
  selectWhenPresent: string | null;
}

function fail(where: string, message: string): never {
  throw new Error(`spec ${where}: ${message}`);
}

function oneOf(where: string, value: unknown, allowed: string[]): string {
  if (typeof value !== 'string' || !allowed.includes(value)) fail(where, `expected one of ${allowed.join(' | ')}, got ${JSON.stringify(value)}`);
  return value;
}

function bool(where: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(where, `expected a boolean, got ${JSON.stringify(value)}`);
  return value;
}

/** The one schema walker over the document's component schemas. */
function walkerOf(doc: SpecDocument): SchemaWalker {
  return new SchemaWalker((doc.components?.schemas ?? {}) as Record<string, SchemaNode>, '#/components/schemas/');
}

// A member of a component schema, wherever the schema declares it (its allOf parts included), or undefined.
function findProperty(doc: SpecDocument, schemaName: string, property: string): SchemaNode | undefined {
  const walker = walkerOf(doc);
  return walker.membersOf(walker.named(schemaName))[property];
}

/** An operation's `x-gw-refusal` (or null without one): each field it names is a member of a variant's response. */
function refusalRow(doc: SpecDocument, where: string, refusal: any, variants: any[]): OperationRow['refusal'] {
  if (refusal === undefined) return null;
  for (const key of ['statusField', 'messageField'] as const) {
    if (typeof refusal?.[key] !== 'string') fail(`${where}.x-gw-refusal`, `${key} must be a field name`);
    if (!variants.some((variant) => findProperty(doc, variant.response, refusal[key])))
      fail(`${where}.x-gw-refusal`, `no response schema of this operation has a member ${refusal[key]}`);
  }
  return { statusField: refusal.statusField, messageField: refusal.messageField };
}

/** The operation table read from the x-gw-* extensions, checked against the schemas it names. */
export function buildOperationRows(doc: SpecDocument): OperationRow[] {
  const rows: OperationRow[] = [];
  const schemas = doc.components?.schemas ?? {};
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    const op = item?.post;
    const where = `paths.${path}.post`;
    if (!op) fail(`paths.${path}`, 'every operation is a POST');
    const requestEncoding = oneOf(`${where}.x-gw-request-encoding`, op['x-gw-request-encoding'], REQUEST_ENCODINGS);
    const responseEncoding = oneOf(`${where}.x-gw-response-encoding`, op['x-gw-response-encoding'], RESPONSE_ENCODINGS);
    const requestMediaTypes = Object.keys(op.requestBody?.content ?? {});
    const responseMediaTypes = Object.keys(op.responses?.['200']?.content ?? {});
    if (requestMediaTypes.length !== 1) fail(`${where}.requestBody`, 'declare exactly one media type');
    if (responseMediaTypes.length !== 1) fail(`${where}.responses.200`, 'declare exactly one media type');
    const variants = op['x-gw-variants'];
    if (!Array.isArray(variants) || variants.length === 0) fail(`${where}.x-gw-variants`, 'list at least one variant');
    const batch = op['x-gw-batch'];
    const refusal = refusalRow(doc, where, op['x-gw-refusal'], variants);
    for (const variant of variants) {
      const vwhere = `${where}.x-gw-variants.${variant?.name}`;
      if (typeof variant?.name !== 'string') fail(vwhere, 'a variant needs a name');
      for (const key of ['request', 'response'] as const) {
        if (!schemas[variant[key]]) fail(vwhere, `${key} schema ${JSON.stringify(variant[key])} is not in components.schemas`);
      }
      let batchRow: OperationRow['batch'] = null;
      if (batch) {
        const bwhere = `${where}.x-gw-batch`;
        if (!Number.isInteger(batch.limit) || batch.limit < 1) fail(bwhere, 'limit must be a positive integer');
        const member = findProperty(doc, variant.request, batch.array);
        if (!member) fail(bwhere, `${variant.request} has no member ${batch.array}`);
        const arraySchema = walkerOf(doc).resolve(member);
        if (batch.separator == null && arraySchema.maxItems !== batch.limit) {
          fail(bwhere, `${variant.request}.${batch.array} maxItems (${arraySchema.maxItems}) differs from limit ${batch.limit}`);
        }
        if (!findProperty(doc, variant.response, batch.responseArray ?? batch.array)) {
          fail(bwhere, `${variant.response} has no member ${batch.responseArray ?? batch.array}`);
        }
        batchRow = {
          array: batch.array,
          responseArray: batch.responseArray ?? batch.array,
          limit: batch.limit,
          statusField: batch.statusField,
          errorField: batch.errorField ?? null,
          separator: batch.separator ?? null,
        };
      }
      rows.push({
        name: variant.name,
        operationId: op.operationId ?? fail(where, 'operationId missing'),
        method: 'POST',
        path,
        requestEncoding,
        requestEncodingDeclared: bool(`${where}.x-gw-request-encoding-declared`, op['x-gw-request-encoding-declared']),
        requestMediaType: requestMediaTypes[0]!,
        responseEncoding,
        responseMediaType: responseMediaTypes[0]!,
        signed: bool(`${where}.x-gw-signed`, op['x-gw-signed']),
        responseSignature: oneOf(`${vwhere}.responseSignature`, variant.responseSignature ?? op['x-gw-response-signature'], SIGNATURES),
        ipAllowListed: bool(`${where}.x-gw-ip-allow-listed`, op['x-gw-ip-allow-listed']),
        retryClass: oneOf(`${where}.x-gw-retry-class`, op['x-gw-retry-class'], RETRY_CLASSES),
        batch: batchRow,
        refusal,
        requestSchema: variant.request,
        responseSchema: variant.response,
        xmlRoot: variant.xmlRoot ?? null,
        selectWhenPresent: variant.selectWhenPresent ?? null,
      });
    }
  }
  const names = rows.map((r) => r.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) fail('x-gw-variants', `variant name ${dup} is used twice`);
  return rows;
}

/** Property names marked `x-gw-secret` anywhere in the components. */
export function collectSecretFields(doc: SpecDocument): string[] {
  const found = new Set<string>();
  const walk = (node: any): void => {
    if (!node || typeof node !== 'object') return;
    for (const [name, prop] of Object.entries<any>(node.properties ?? {})) {
      if (prop?.['x-gw-secret'] === true) found.add(name);
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') walk(value);
  };
  walk(doc.components?.schemas);
  return [...found].sort();
}

function rewriteRefs(node: any): any {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'xml') continue; // OpenAPI's XML object is no JSON Schema keyword
    out[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '#/$defs/') : rewriteRefs(value);
  }
  return out;
}

/** The spec's own component schemas as one JSON Schema 2020-12 document (the source of request validation). */
export function buildSpecSchemas(doc: SpecDocument): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://gw.local/spec/v1/schemas.json',
    $defs: rewriteRefs(doc.components?.schemas ?? {}),
  };
}
