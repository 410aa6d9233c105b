// UNKNOWNS U51: only requests known not to have left, and queries, are tried again; a money-moving request never is once written.

/** How failed attempts are tried again: at most `attempts` tries in all, waiting with exponential backoff in between. */
export interface RetryOptions {
  /** Tries in all, the first included. Default 3; 1 turns retries off. */
  readonly attempts?: number;
  /** Wait before the second try, in ms; it doubles for each further try. Default 100. */
  readonly baseDelayMs?: number;
  /** Longest wait between two tries, in ms. Default 2000. */
  readonly maxDelayMs?: number;
  /**
   * How long, in all, a query answered with a throttle (HTTP 429, or 503 with Retry-After) waits to be tried again:
   * each time the Retry-After the gateway asked for (the backoff when it gave none), while the waits add up to at most
   * this; then, or for a single longer wait, a `ThrottledError`. Throttles do not count against `attempts`. Default
   * 30000 (UNKNOWNS U50).
   */
  readonly maxThrottleWaitMs?: number;
}

/** The retry policy with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** The defaults of `retry`. */
export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ attempts: 3, baseDelayMs: 100, maxDelayMs: 2_000, maxThrottleWaitMs: 30_000 });

/** Statuses after which a query (a safe operation) is tried again: the gateway or a proxy in front of it was unavailable. */
export const RETRIED_QUERY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The wait after failed try number `attempt` (1-based): exponential, capped, with jitter so that clients do not retry in step. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
