import { operations, type GwError, type OperationName } from '@gw/types';
import { DecodeError, type DecodeErrorDetails } from '@gw/xml-codec';
import { withOperation } from './decode-response.ts';
import { OutcomeUnknownError } from './errors/outcome-unknown-error.ts';
import { SignatureError } from './errors/signature-error.ts';
import type { RequestIdentifiers } from './request-identifiers.ts';
import { describeThrown } from './thrown.ts';

/** What failed with an answer in hand: the verifier (it threw or rejected), or reading the answer (anything else). */
export type AnswerFailureKind = 'verify' | 'read';

/**
 * The typed error for a failure after an answer came: the request reached the gateway, so for a
 * money-moving operation it is an OutcomeUnknownError, whatever threw; for a query a SignatureError (`unverifiable`)
 * or a DecodeError (`unreadable`). The thrown value is the `cause`.
 */
export function answerFailureError(operation: OperationName, kind: AnswerFailureKind, thrown: unknown, identifiers: RequestIdentifiers | null): GwError {
  const { name, text } = describeThrown(thrown);
  const detail = `${name}: ${text}`;
  if (identifiers) {
    const reason = kind === 'verify' ? 'unverifiable-answer' : 'unreadable-answer';
    return new OutcomeUnknownError({ operation, path: operations[operation].path, reason, identifiers, detail }, { cause: thrown });
  }
  if (kind === 'verify') return new SignatureError({ operation, reason: 'unverifiable', response: {}, identifiers: null });
  const details = { format: operations[operation].responseEncoding, failure: 'unreadable', path: '' } as unknown as DecodeErrorDetails;
  return withOperation(new DecodeError(details, `reading the answer failed (${detail})`, { cause: thrown }), operation, null);
}
