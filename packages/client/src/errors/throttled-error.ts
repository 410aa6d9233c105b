import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { reconcileAdvice, type RequestIdentifiers } from '../request-identifiers.ts';

/**
 * What a throttled money-moving request means (UNKNOWNS U50; the client's `throttled` option): `not-applied`, by
 * HTTP's convention for 429 (the request was refused before it was processed: safe to send again after the wait), or
 * `unknown` (reconcile by query first).
 */
export type ThrottledMeaning = 'not-applied' | 'unknown';

/** Context of a ThrottledError. */
export interface ThrottledErrorDetails {
  readonly operation: OperationName;
  readonly path: string;
  /** 429, or 503 with a Retry-After. */
  readonly status: number;
  /** How long the gateway asked to wait (its Retry-After, in seconds or as a date), in ms; null when it did not say. */
  readonly retryAfterMs: number | null;
  /** How long this call already waited for earlier throttles (a query tried again), in ms. */
  readonly waitedMs: number;
  /** For a money-moving request, what the throttle means by the client's policy; null for a query, which moves nothing. */
  readonly outcome: ThrottledMeaning | null;
  /** The request's order numbers, transaction ids, request id (money-moving only). */
  readonly identifiers: RequestIdentifiers | null;
}

/**
 * The gateway said "slow down": HTTP 429, or 503 with a Retry-After. A query (safe) is tried again after the wait the
 * gateway asked for, within `retry.maxThrottleWaitMs`; this error comes when the wait is longer or the budget is spent.
 * A money-moving request is never tried again by the client: with the default policy its throttle means it was not
 * applied (send it again after `retryAfterMs`); with `throttled: 'unknown'`, reconcile by query first.
 */
export class ThrottledError extends GwError<ThrottledErrorDetails> {
  override readonly name = 'ThrottledError';

  constructor(details: ThrottledErrorDetails) {
    const wait = details.retryAfterMs === null ? 'without saying how long to wait' : `asking to wait ${Math.ceil(details.retryAfterMs / 1000)} s`;
    const meaning =
      details.outcome === null
        ? `it was not tried again${details.waitedMs > 0 ? ` after ${Math.round(details.waitedMs / 1000)} s of waits` : ''}: the wait is past retry.maxThrottleWaitMs`
        : details.outcome === 'not-applied'
          ? 'by the throttled policy (UNKNOWNS U50) it was not applied: send it again once the wait is over'
          : `by the throttled policy its outcome is unknown: ${reconcileAdvice(details.operation, details.identifiers!)}`;
    super(GW_ERROR_CODES.throttled, `${details.operation}: the gateway throttled it (HTTP ${details.status}, ${wait}); ${meaning}`, details);
  }

  /** How long the gateway asked to wait, in ms (null: not said). */
  get retryAfterMs(): number | null {
    return this.details.retryAfterMs;
  }
}

/**
 * A Retry-After header as ms from `now`: delta-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`);
 * null when absent or neither. A date in the past is 0.
 */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) || !/[a-z]/i.test(text) ? null : Math.max(0, at - now);
}
