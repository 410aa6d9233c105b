import { GW_ERROR_CODES, GwError } from '@gw/types';

/** What a `SignableMessageError` says about the refused input: where, and what kind of value (never the value). */
export interface SignableMessageErrorDetails {
  /** The operation the message was for, when known. */
  readonly operation?: string;
  /** The field path of the refused value, e.g. `capture_orders[0].amount`. */
  readonly path?: string;
  /** The kind of the refused value (`bigint`, `Date`, `NaN`, ...). */
  readonly valueType?: string;
  /** Why, when a caller may act on it: `too-deep` for a record nested deeper than `maxDepth` (an unverifiable answer). */
  readonly reason?: 'too-deep';
  /** The deepest field path allowed, in segments, given with `reason: 'too-deep'`. */
  readonly maxDepth?: number;
}

/** A record or message that cannot be signed: an unknown operation, an unsupported value, a cycle, a bad body. */
export class SignableMessageError extends GwError<SignableMessageErrorDetails> {
  override readonly name = 'SignableMessageError';

  constructor(message: string, details: SignableMessageErrorDetails) {
    super(GW_ERROR_CODES.signature, message, details);
  }
}
