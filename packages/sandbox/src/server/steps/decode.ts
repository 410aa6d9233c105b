import { variantOf } from '@gw/types';
import { text } from '../../wire/wire-record.ts';
import { SandboxHttpError } from '../../refusals/errors.ts';
import { decodeRequestBody } from '../../wire/body.ts';
import { fieldsXmlCannotCarry } from '../../wire/unencodable-fields.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import { logRequest, type V1Call } from '../v1-call.ts';

/** Reads the record from the body by the operation's encoding, and picks the variant it is and its merchant (a bad body throws HTTP 400). */
export function readRecord(call: V1Call, body: Buffer): void {
  const { record, encoding } = decodeRequestBody(call.variants[0]!, String(call.req.headers['content-type'] ?? ''), body);
  call.record = record;
  call.encoding = encoding;
  call.op = variantOf(call.variants, record);
  call.merchantId = text(record, 'merchant_id');
  call.accountId = text(record, 'account_id');
  call.decoded = true;
}

/**
 * Decode: reads the record from the body (unless the throttle step did), and refuses (HTTP 400) fields an XML answer
 * could not echo.
 */
export function decode(parts: SandboxParts, call: V1Call, body: Buffer): void {
  if (!call.decoded) readRecord(call, body);
  const op = call.op;
  if (op.responseEncoding === 'json') return;
  const record = call.record;
  const unencodable = fieldsXmlCannotCarry(record);
  if (unencodable.length === 0) return;
  logRequest(parts, call, op.name, false, 'invalid');
  throw new SandboxHttpError(400, `${unencodable.length} field(s) the ${op.responseEncoding.toUpperCase()} answer cannot echo`, unencodable);
}
