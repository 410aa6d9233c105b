import { countOf, type OutcomeCounts } from './outcome.ts';

/** A progress event: how far the batch is, how fast it goes, and when it should end. */
export interface BatchProgress {
  /** Orders with a final outcome. */
  readonly done: number;
  /** Input orders when known in advance (an array), otherwise null. */
  readonly total: number | null;
  readonly counts: Readonly<OutcomeCounts>;
  /** Requests in flight. */
  readonly inFlight: number;
  /**
   * Orders settled per second of sending: since this run began to send, not counting the outcomes it found already
   * decided (a resume's), so a resume does not show the earlier run's work as its speed.
   */
  readonly ratePerSecond: number;
  /** Seconds left at the current rate, when the total is known. */
  readonly etaSeconds: number | null;
  readonly elapsedMs: number;
  /** Requests the gateway throttled so far (429, or 503 with Retry-After): each was sent again after the wait. */
  readonly throttled: number;
  /** The pace in force, in requests per second (`maxRate`, or lower when the gateway throttled the batch), or null when none. */
  readonly pace: number | null;
}

/** Progress figures from counts and the clock: the rate over the time this run has been sending. */
export class SendingRate {
  #since: number | null = null;
  #doneBefore: number | null = null;

  /** Sending starts now; `counts`, when known, are the outcomes decided before it (a resume's). */
  start(counts: OutcomeCounts | null): void {
    if (this.#since !== null) return;
    this.#since = performance.now();
    if (counts) this.#doneBefore = countOf(counts);
  }

  /** The progress event for `counts` now. */
  progress(
    counts: OutcomeCounts,
    total: number | null,
    inFlight: number,
    startedAt: number,
    pacing: { readonly throttles: number; readonly pace: number | null },
  ): BatchProgress {
    const done = countOf(counts);
    // A shared store's counts at the first read after sending began stand for what was decided before.
    if (this.#since !== null && this.#doneBefore === null) this.#doneBefore = done;
    const sendingMs = this.#since === null ? 0 : performance.now() - this.#since;
    const ratePerSecond = sendingMs > 0 ? (Math.max(0, done - (this.#doneBefore ?? 0)) * 1000) / sendingMs : 0;
    const etaSeconds = total === null || ratePerSecond === 0 ? null : Math.max(0, (total - done) / ratePerSecond);
    return {
      done,
      total,
      counts: { ...counts },
      inFlight,
      ratePerSecond,
      etaSeconds,
      elapsedMs: Math.max(1, Date.now() - startedAt),
      throttled: pacing.throttles,
      pace: pacing.pace,
    };
  }
}
