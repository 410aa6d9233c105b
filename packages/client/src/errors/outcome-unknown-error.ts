import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { reconcileAdvice, type RequestIdentifiers } from '../request-identifiers.ts';

/**
 * Why the outcome is unknown: no answer in time, the connection lost before the answer, or an answer that came but
 * could not be checked (the verifier threw or rejected) or read (nested too deep, or any other failure reading it).
 */
export type OutcomeUnknownReason = 'timeout' | 'connection-lost' | 'unverifiable-answer' | 'unreadable-answer';

const WHY: Readonly<Record<OutcomeUnknownReason, string>> = {
  timeout: 'no answer came in time',
  'connection-lost': 'the connection was lost before the answer',
  'unverifiable-answer': 'the answer that came could not be verified, as the verifier failed',
  'unreadable-answer': 'the answer that came could not be read',
};

/** Context of an OutcomeUnknownError: everything needed to find out what happened. */
export interface OutcomeUnknownErrorDetails extends RequestIdentifiers {
  readonly operation: OperationName;
  readonly path: string;
  readonly reason: OutcomeUnknownReason;
  /** Always `unknown`, as in the `outcome` of HttpError, SignatureError and DecodeError. */
  readonly outcome: 'unknown';
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

  /** `detail` adds what went wrong reading the answer (e.g. the verifier's message), card data already redacted. */
  constructor(
    options: { operation: OperationName; path: string; reason: OutcomeUnknownReason; identifiers: RequestIdentifiers; detail?: string },
    errorOptions?: { cause?: unknown },
  ) {
    const reconcile = reconcileAdvice(options.operation, options.identifiers);
    const why = WHY[options.reason] + (options.detail ? ` (${options.detail})` : '');
    super(
      GW_ERROR_CODES.outcomeUnknown,
      `${options.operation}: the request was sent but ${why}; it may or may not have happened and was NOT sent again. ${reconcile}`,
      { operation: options.operation, path: options.path, reason: options.reason, outcome: 'unknown', ...options.identifiers, reconcile },
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
