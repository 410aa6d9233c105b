import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Why the parameters a shopper's browser brought back to return_url / cancel_url were not accepted. */
export type ReturnParametersFailure = 'incomplete' | 'missing' | 'mismatch';

/** Context of a ReturnParametersError. */
export interface ReturnParametersErrorDetails {
  /** `incomplete`: a signed parameter is absent; `missing`: no `encryption_data`; `mismatch`: it does not verify. */
  readonly reason: ReturnParametersFailure;
  /** The operation that created the order (the message is signed as one of it). */
  readonly operation: string;
  /** The signed parameters that are absent (for `incomplete`). */
  readonly absent: readonly string[];
  /** The parameters as received (they carry no card data), `encryption_data` left out. */
  readonly parameters: Readonly<Record<string, string>>;
}

const WHAT: Readonly<Record<ReturnParametersFailure, string>> = {
  incomplete: 'lack signed parameters',
  missing: 'carry no encryption_data',
  mismatch: 'carry an encryption_data that does not verify',
};

/**
 * The return parameters of a redirect payment are not proven to come from the gateway (code `GW_SIGNATURE`): do not
 * show the shopper a result from them; query the order (by `order_no`) or wait for its notification.
 */
export class ReturnParametersError extends GwError<ReturnParametersErrorDetails> {
  override readonly name = 'ReturnParametersError';

  constructor(details: ReturnParametersErrorDetails) {
    const absent = details.absent.length > 0 ? ` (${details.absent.join(', ')})` : '';
    super(
      GW_ERROR_CODES.signature,
      `The return parameters of ${details.operation} ${WHAT[details.reason]}${absent}: they may not come from the gateway. ` +
        "Check the verifier's secret; do not trust the result they state: query the order by order_no or wait for its notification.",
      details,
    );
  }
}
