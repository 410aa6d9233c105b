/**
 * Every default of a batch's settings, in one place (the README's options table lists the same values). A lease
 * outlives a request with its margin: 60 s > 30 s + 5 s, so a healthy worker sends with ~40 s of lease left, and a
 * worker that died has its chunks taken over after at most 60 s and queried 35 s later.
 */
export const BATCH_DEFAULTS = {
  /** Requests in flight at once (UNKNOWNS U50). */
  concurrency: 4,
  /** Sends of an order found not applied after an unanswered request. */
  maxResends: 2,
  /** Each request's time limit, passed with every call (the client's own default too). */
  timeoutMs: 30_000,
  /** A leased chunk is sent only while its lease has at least this long left when the request is written. */
  sendMarginMs: 5_000,
  /** How long a worker's lease on a chunk lasts unless renewed (every third of it). */
  leaseMs: 60_000,
  /** How long an idle worker waits before looking for a chunk again. */
  pollMs: 200,
  /** How long a worker rides out an unreachable ledger (reconnecting, sending nothing new) before it stops. */
  ledgerOutageMs: 30_000,
  /** How long a worker started before its batch exists waits for it to be created. */
  batchWaitMs: 30_000,
} as const;

/** The request's time limit and send margin of a batch's settings, defaults filled in. */
export function sendTiming(settings: { readonly timeoutMs?: number | undefined; readonly sendMarginMs?: number | undefined }): { timeoutMs: number; sendMarginMs: number } {
  return { timeoutMs: settings.timeoutMs ?? BATCH_DEFAULTS.timeoutMs, sendMarginMs: settings.sendMarginMs ?? BATCH_DEFAULTS.sendMarginMs };
}

/** How long after a request is written it can still take effect: the request timeout plus the send margin. */
export function requestsEndWithinMs(settings: { readonly timeoutMs?: number | undefined; readonly sendMarginMs?: number | undefined }): number {
  const { timeoutMs, sendMarginMs } = sendTiming(settings);
  return timeoutMs + sendMarginMs;
}
