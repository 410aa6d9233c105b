import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { reconcileAdvice, type RequestIdentifiers } from '../request-identifiers.ts';

/** Why no answer came. */
export type OutcomeUnknownReason = 'timeout' | 'connection-lost';

/** Context of an OutcomeUnknownError: everything needed to find out what happened. */
export interface OutcomeUnknownErrorDetails extends RequestIdentifiers {
  readonly operation: OperationName;
  readonly path: string;
  readonly reason: OutcomeUnknownReason;
  /** How to find out what happened, in words. */
  readonly reconcile: string;
}

/**
 * A money-moving request (payment, capture, cancel, refund, review, payout, subscription cancel) was sent and no
 * answer came. It may or may not have happened; the client never sends it again by itself (UNKNOWNS U51). Reconcile
 * first: query by `order_no` / `transaction_id`, or, for a payout, look it up by its `request_id`.
 */
export class OutcomeUnknownError extends GwError<OutcomeUnknownErrorDetails> {
  override readonly name = 'OutcomeUnknownError';

  constructor(options: { operation: OperationName; path: string; reason: OutcomeUnknownReason; identifiers: RequestIdentifiers }, errorOptions?: { cause?: unknown }) {
    const reconcile = reconcileAdvice(options.operation, options.identifiers);
    const why = options.reason === 'timeout' ? 'no answer came in time' : 'the connection was lost before the answer';
    super(
      GW_ERROR_CODES.outcomeUnknown,
      `${options.operation}: the request was sent but ${why}; it may or may not have happened and was NOT sent again. ${reconcile}`,
      { operation: options.operation, path: options.path, reason: options.reason, ...options.identifiers, reconcile },
      errorOptions,
    );
  }

  /** Every `order_no` of the request (all elements of a batch). */
  get orderNos(): readonly string[] {
    return this.details.order_no;
  }

  /** Every `transaction_id` of the request (all elements of a batch). */
  get transactionIds(): readonly string[] {
    return this.details.transaction_id;
  }

  /** The payout's `request_id`, or null. */
  get requestId(): string | null {
    return this.details.request_id;
  }
}
