import { GW_ERROR_CODES, GwError } from '@gw/types';

/**
 * What one try came to, as `gw.outcome` says it:
 * - `applied`: the gateway answered and the call returned its answer (a declined payment included: the answer says so);
 * - `refused`: an answer came that is not a result and leaves nothing in doubt: a whole-request refusal, a non-2xx or
 *   an answer the client refused, for an operation that moves no money (or whose refusal names nothing applied);
 * - `unknown`: the try may have been applied: a money-moving request sent with no usable answer (`details.outcome`
 *   `'unknown'`), or a query sent that got no answer;
 * - `not-sent`: the request never left the process or never reached the gateway (`details.sent` false);
 * - `throttled`: the gateway answered 429, or 503 with Retry-After (`ThrottledError`), whatever `throttled` means.
 */
export type GwOutcome = 'applied' | 'refused' | 'unknown' | 'not-sent' | 'throttled';

/** The `gw.outcome` of a try that ended with `error` (null: it returned an answer). */
export function attemptOutcome(error: unknown): GwOutcome {
  if (error === null) return 'applied';
  if (!(error instanceof GwError)) return 'unknown'; // a fault of the client's own while a request was in flight
  if (error.code === GW_ERROR_CODES.throttled) return 'throttled';
  const details = error.details as { readonly outcome?: unknown; readonly sent?: unknown };
  if (details.outcome === 'unknown') return 'unknown';
  if (details.outcome === 'not-sent' || details.sent === false) return 'not-sent';
  if (details.sent === true) return 'unknown';
  return 'refused';
}

/** The `error.type` of a try that failed: gw's error code, `_OTHER` for anything else. */
export function errorType(error: unknown): string {
  return error instanceof GwError ? error.code : '_OTHER';
}
