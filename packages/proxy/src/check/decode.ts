// Both sides decoded by gw's own codecs, by the operation's declared encoding (UNKNOWNS U31-U33).
import { operations, variantOf, type OperationName, type OperationSpec } from '@gw/types';
import { decodeAlternativeRespon, decodeCancelSubscription, decodeCardRespon, decodeCheckoutPage } from '@gw/xml-codec';

/** The wire form a body was read as. */
export type WireForm = 'json' | 'form' | 'xml' | 'html';

/** A decoded request: the variant it selects, its record and the form it came in; or why it could not be read. */
export type DecodedRequest =
  { readonly op: OperationSpec; readonly record: Record<string, unknown>; readonly form: WireForm } | { readonly op: OperationSpec; readonly failure: string };

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function parseForm(text: string): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    // UNKNOWNS U31: nested members may travel in a form body as JSON text.
    const nested = /^[[{]/.test(value) ? parseJsonObjectOrArray(value) : undefined;
    record[name] = nested ?? value;
  }
  return record;
}

function parseJsonObjectOrArray(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readRecord(declared: OperationSpec, contentType: string, text: string): { record: Record<string, unknown>; form: WireForm } | string {
  if (declared.requestEncoding === 'xml' || contentType.includes('xml')) {
    try {
      return { record: decodeCancelSubscription(text, { root: null }) as Record<string, unknown>, form: 'xml' };
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  const json = parseJsonObject(text);
  if (json) return { record: json, form: 'json' };
  if (declared.requestEncoding === 'form' || contentType.includes('application/x-www-form-urlencoded')) return { record: parseForm(text), form: 'form' };
  return 'the body is neither a JSON object nor a form';
}

/** Decodes a request body and selects the operation variant it is (the one whose `selectWhenPresent` member it has). */
export function decodeRequest(variants: readonly OperationSpec[], contentType: string, body: Buffer): DecodedRequest {
  const fallback = variantOf(variants, null);
  const read = readRecord(fallback, contentType, body.toString('utf8'));
  if (typeof read === 'string') return { op: fallback, failure: read };
  return { op: variantOf(variants, read.record), ...read };
}

const RESPON_DECODERS: Readonly<Record<string, typeof decodeCardRespon>> = { CardRespon: decodeCardRespon, AlternativeRespon: decodeAlternativeRespon };

/** Decodes a 200 answer by the operation's declared encoding: JSON, `respon` XML, or the checkout page's hidden fields. */
export function decodeAnswer(op: OperationSpec, body: Buffer, maxInputBytes: number): Record<string, unknown> {
  const text = body.toString('utf8');
  switch (op.responseEncoding) {
    case 'json': {
      const record = parseJsonObject(text);
      if (!record) throw new Error('the body is not a JSON object');
      return record;
    }
    case 'xml': {
      const decode = RESPON_DECODERS[op.responseSchema];
      if (!decode) throw new Error(`no XML decoder for ${op.responseSchema}`);
      return decode(text, { maxInputBytes }) as Record<string, unknown>;
    }
    case 'html':
      return { ...decodeCheckoutPage(text, { maxInputBytes }).fields } as Record<string, unknown>;
  }
}

/** The operation name of a spec row. */
export function nameOf(op: OperationSpec): OperationName {
  return op.name as OperationName;
}
