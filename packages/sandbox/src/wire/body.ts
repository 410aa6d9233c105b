// Request bodies decoded by the operation's declared encoding, responses encoded by it (seed 4; UNKNOWNS U31, U32).
import type { OperationSpec } from '@gw/types';
import { decodeCancelSubscription, encodeCheckoutPage, encodeRespon } from '@gw/xml-codec';
import type { WireRecord } from './wire-record.ts';
import { SandboxHttpError } from '../refusals/errors.ts';
import { secureDecoded, type DecodedProblem } from './decoded-value.ts';

/** At most this many problems are listed in one answer (the count names them all): never a body-sized answer. */
const LISTED_PROBLEMS = 100;

function refuseProblems(problems: readonly DecodedProblem[]): void {
  if (problems.length === 0) return;
  const listed = problems.length > LISTED_PROBLEMS ? `, the first ${LISTED_PROBLEMS} listed` : '';
  throw new SandboxHttpError(400, `${problems.length} problem(s) in the body's structure${listed}`, problems.slice(0, LISTED_PROBLEMS));
}

function parseForm(text: string, nestedJson: boolean): WireRecord {
  // No prototype: a member named `__proto__` is an own member like any other, never the record's prototype. Set on an
  // empty object rather than made by Object.create(null), which V8 keeps as a slower dictionary.
  const record = Object.setPrototypeOf({}, null) as WireRecord;
  const problems: DecodedProblem[] = [];
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(record, name))
      throw new SandboxHttpError(400, `form field ${name} appears more than once`, [{ path: `/${name}`, message: 'appears more than once' }]);
    let decoded: unknown = value;
    // UNKNOWNS U31: on the payment paths, nested members may travel in a form body as JSON text.
    if (nestedJson && /^[[{]/.test(value)) {
      try {
        decoded = JSON.parse(value);
      } catch {
        decoded = value;
      }
    }
    const secured = secureDecoded({ [name]: decoded });
    problems.push(...secured.problems);
    record[name] = (secured.value as WireRecord)[name];
  }
  refuseProblems(problems);
  return record;
}

function parseJsonObject(text: string): WireRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new SandboxHttpError(400, 'the JSON body must be an object', [{ path: '', message: 'must be a JSON object' }]);
  const secured = secureDecoded(value);
  refuseProblems(secured.problems);
  return secured.value as WireRecord;
}

/** A decoded request body and the encoding it was read as (a body-based signature covers the body in that encoding). */
export interface DecodedRequest {
  readonly record: WireRecord;
  readonly encoding: OperationSpec['requestEncoding'];
}

/** Decodes a request body by the operation's declared encoding (or a form body where the seed declares none, U31). */
export function decodeRequestBody(op: OperationSpec, contentType: string, body: Buffer): DecodedRequest {
  const text = body.toString('utf8');
  switch (op.requestEncoding) {
    case 'json': {
      // The seed's sample commands send JSON bodies with the form Content-Type (UNKNOWNS U32): JSON is tried first.
      const record = parseJsonObject(text);
      if (record) return { record, encoding: 'json' };
      // UNKNOWNS U31: where the seed declares no body type (authorise, checkout), a form body is read too.
      if (contentType.includes('application/x-www-form-urlencoded') && !op.requestEncodingDeclared) return { record: parseForm(text, true), encoding: 'form' };
      throw new SandboxHttpError(400, 'the body is not valid JSON', [{ path: '', message: 'is not valid JSON' }]);
    }
    case 'form':
      return { record: parseForm(text, false), encoding: 'form' };
    case 'xml':
      try {
        // UNKNOWNS U35: any root element name is accepted.
        const secured = secureDecoded(decodeCancelSubscription(text, { root: null }));
        refuseProblems(secured.problems);
        return { record: secured.value as WireRecord, encoding: 'xml' };
      } catch (error) {
        if (error instanceof SandboxHttpError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new SandboxHttpError(400, `the XML body cannot be read: ${message}`, [{ path: '', message }]);
      }
  }
}

/** A response ready to write. */
export interface EncodedResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Encodes a response record by the operation's declared encoding. */
export function encodeResponseBody(op: OperationSpec, record: WireRecord): EncodedResponse {
  switch (op.responseEncoding) {
    case 'json':
      return { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(record) };
    case 'xml':
      return { status: 200, contentType: 'application/xml; charset=utf-8', body: encodeRespon(record as never) };
    case 'html': {
      const page = record as unknown as { fields: [string, string][]; action: string };
      return { status: 200, contentType: 'text/html; charset=utf-8', body: encodeCheckoutPage(page.fields, { action: page.action }) };
    }
  }
}

/** A structured JSON error (UNKNOWNS U49: the sandbox's choice, not a claim about the gateway). */
export function errorResponse(status: number, message: string, errors: readonly { path: string; message: string }[] = []): EncodedResponse {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ return_status: '0', return_message: message, errors }) };
}
