import { createSignableMessage } from '@gw/signer-interface';
import type { OperationName } from '@gw/types';
import { encodeRequestBody } from '@gw/xml-codec';
import { refusal } from '../../refusals/errors.ts';
import { withoutSignature } from '../../wire/without-signature.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import type { V1Call } from '../v1-call.ts';

/** Verify, first: refuses (E001) a merchant_id and account_id pair the sandbox does not know. */
export function checkMerchant(parts: SandboxParts, call: V1Call): void {
  if (parts.merchants.get(call.merchantId) !== call.accountId) throw refusal('unknownMerchant');
}

/** Verify, then: the verifier's answer on the request's encryption_data (false for a request without one). */
export function signatureVerifies(parts: SandboxParts, call: V1Call): boolean | Promise<boolean> {
  const { op, record } = call;
  // A body-based verifier sees the body re-encoded as it came, without encryption_data: JSON, or a form where the
  // seed declares no type (U31). The message's fields leave encryption_data out themselves: no copy for them.
  const bodyEncoding = call.encoding === 'form' && op.requestEncoding !== 'form' ? { encoding: 'form' as const } : {};
  const operation = op.name as OperationName;
  const message = createSignableMessage({ operation, record, body: () => encodeRequestBody(operation, withoutSignature(record), bodyEncoding) });
  const signature = record.encryption_data;
  return typeof signature === 'string' && parts.verifier.verify(message, signature);
}
