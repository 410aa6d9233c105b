import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';

/** Context of a TimeoutError. */
export interface TimeoutErrorDetails {
  readonly operation: OperationName;
  readonly path: string;
  readonly timeoutMs: number;
  /** Whether the request had started to go out when the time ran out (false: it never left). */
  readonly sent: boolean;
}

/**
 * No answer within `timeoutMs` (UNKNOWNS U51) for a query, or for any operation whose request never left. A
 * money-moving request that left and got no answer in time is an OutcomeUnknownError instead.
 */
export class TimeoutError extends GwError<TimeoutErrorDetails> {
  override readonly name = 'TimeoutError';

  constructor(details: TimeoutErrorDetails) {
    const what = details.sent ? 'no answer came' : 'the request never left (no connection in time); nothing was sent, so it is safe to send again';
    super(GW_ERROR_CODES.timeout, `${details.operation}: ${what} within ${details.timeoutMs} ms (${details.path})`, details);
  }
}
