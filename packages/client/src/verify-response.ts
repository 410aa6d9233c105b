// UNKNOWNS U42: whether a response carries a signature to verify is per operation (`x-gw-response-signature`).
import { createSignableMessage, type Verifier } from '@gw/signer-interface';
import { operations, type OperationName } from '@gw/types';
import { encodeRespon } from '@gw/xml-codec';

/** What checking a response's `encryption_data` found. */
export type ResponseSignatureCheck = 'verified' | 'missing' | 'mismatch' | 'not-required';

function reencode(operation: OperationName, unsigned: Record<string, unknown>): string {
  // The body a body-based verifier sees is the record re-encoded without encryption_data, as the sender encoded it.
  return operations[operation].responseEncoding === 'xml' ? encodeRespon(unsigned) : JSON.stringify(unsigned);
}

/**
 * Verifies the `encryption_data` of a decoded response (wire field names) per the operation's `responseSignature`:
 * `required` (missing or wrong → not accepted), `if-present`, `none`. The message is built from the record without
 * `encryption_data`; its body is encoded only if the verifier reads it.
 */
export function checkResponseSignature(
  operation: OperationName,
  record: Record<string, unknown>,
  verifier: Verifier,
): ResponseSignatureCheck | Promise<ResponseSignatureCheck> {
  const rule = operations[operation].responseSignature;
  if (rule === 'none') return 'not-required';
  const { encryption_data: signature, ...unsigned } = record;
  if (typeof signature !== 'string' || signature === '') return rule === 'required' ? 'missing' : 'not-required';
  const message = createSignableMessage({ operation, record: unsigned, body: () => reencode(operation, unsigned) });
  const verdict = verifier.verify(message, signature);
  // A synchronous verifier's answer is used as it is: no promise, no extra tick on every call.
  return typeof verdict === 'boolean' ? (verdict ? 'verified' : 'mismatch') : verdict.then((ok) => (ok === true ? 'verified' : 'mismatch'));
}
