import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { redactRecord, redactText } from '../redact.ts';
import type { WholeRefusal } from '../whole-refusal.ts';
import { reconcileAdvice, type RequestIdentifiers } from '../request-identifiers.ts';

/** Why a response signature was not accepted. */
export type SignatureFailure = 'missing' | 'mismatch' | 'unverifiable';

const WHAT: Readonly<Record<SignatureFailure, string>> = {
  missing: 'carries no encryption_data, which this operation requires',
  mismatch: 'has an encryption_data that does not verify',
  unverifiable: 'could not be verified: the verifier failed',
};

/** Context of a SignatureError. */
export interface SignatureErrorDetails {
  readonly operation: OperationName;
  /**
   * `missing`: a response that must be signed carries no `encryption_data`; `mismatch`: it does not verify;
   * `unverifiable`: the verifier threw or rejected (a query's answer; money-moving answers are an OutcomeUnknownError).
   */
  readonly reason: SignatureFailure;
  /**
   * `unknown` for money-moving operations: an answer came but cannot be trusted, so reconcile. `refused` when the
   * unverifiable answer refuses the request as a whole and names nothing applied (`refusal` holds its code and text):
   * a wrong secret or signer is the likely cause. Null for operations that move no money.
   */
  readonly outcome: 'unknown' | 'refused' | null;
  /** The whole-request refusal the unverified answer states (e.g. `{ code: 'E003', ... }`), or null. */
  readonly refusal: WholeRefusal | null;
  readonly identifiers: RequestIdentifiers | null;
  /** The decoded response, secret fields redacted (UNKNOWNS U42: for money-moving operations it did reach the gateway). */
  readonly response: object;
}

/** A response signature that is missing or does not verify (UNKNOWNS U42); the response is not to be trusted. */
export class SignatureError extends GwError<SignatureErrorDetails> {
  override readonly name = 'SignatureError';

  /** `refusal`: the whole-request refusal the unverified answer states (see wholeRequestRefusal), if any. */
  constructor(options: {
    operation: OperationName;
    reason: SignatureFailure;
    response: object;
    identifiers: RequestIdentifiers | null;
    refusal?: WholeRefusal | null;
  }) {
    const what = WHAT[options.reason];
    const refusal = options.refusal ?? null;
    const message = refusal
      ? `${options.operation}: the gateway refused the request as a whole (${refusal.code}: ${redactText(refusal.message)}) in an answer that ${what.replace(/^has /, 'carries ')}. ` +
        "The request's signing secret or signer is the likely cause: check that the signer's secret (and the verifier's) is the one the gateway holds for this merchant. " +
        'The answer names nothing that was applied; a query by order_no or transaction_id confirms it.'
      : `${options.operation}: the response ${what}; it was not accepted. Check the verifier's secret, or pass verifyResponses: false if this gateway does not sign it.` +
        (options.identifiers ? ` Treat the outcome as unknown: ${reconcileAdvice(options.operation, options.identifiers)}` : '');
    const outcome = refusal ? 'refused' : options.identifiers ? 'unknown' : null;
    super(GW_ERROR_CODES.signature, message, {
      operation: options.operation,
      reason: options.reason,
      outcome,
      refusal,
      identifiers: options.identifiers,
      response: redactRecord(options.response),
    });
  }

  /** The decoded (untrusted) response, secret fields redacted. */
  get response(): object {
    return this.details.response;
  }
}
