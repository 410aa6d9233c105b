import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { redactRecord } from '../redact.ts';
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
  /** `unknown` for money-moving operations: an answer came but cannot be trusted, so reconcile. */
  readonly outcome: 'unknown' | null;
  readonly identifiers: RequestIdentifiers | null;
  /** The decoded response, secret fields redacted (UNKNOWNS U42: for money-moving operations it did reach the gateway). */
  readonly response: object;
}

/** A response signature that is missing or does not verify (UNKNOWNS U42); the response is not to be trusted. */
export class SignatureError extends GwError<SignatureErrorDetails> {
  override readonly name = 'SignatureError';

  constructor(options: { operation: OperationName; reason: SignatureFailure; response: object; identifiers: RequestIdentifiers | null }) {
    const what = WHAT[options.reason];
    const advice = options.identifiers ? ` Treat the outcome as unknown: ${reconcileAdvice(options.operation, options.identifiers)}` : '';
    super(
      GW_ERROR_CODES.signature,
      `${options.operation}: the response ${what}; it was not accepted. Check the verifier's secret, or pass verifyResponses: false if this gateway does not sign it.${advice}`,
      { operation: options.operation, reason: options.reason, outcome: options.identifiers ? 'unknown' : null, identifiers: options.identifiers, response: redactRecord(options.response) },
    );
  }

  /** The decoded (untrusted) response, secret fields redacted. */
  get response(): object {
    return this.details.response;
  }
}
