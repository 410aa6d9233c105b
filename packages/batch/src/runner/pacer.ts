import { setTimeout as sleep } from 'node:timers/promises';
import { BatchThrottledError, PausedError } from '../errors.ts';

/** Spacing kept above 1/rate by this much: requests leave at most `rate` in any second even with a little jitter. */
const SPACING_MARGIN = 1.01;
/**
 * The rate after a throttle: this share of the requests the gateway let through in the last second (those sent less
 * those throttled): a gateway that throttles past a quota of N a second has just let N through.
 */
const DECREASE = 0.95;
/** The rate grows again by this share per second without a throttle (at least 0.2 requests per second per second). */
const INCREASE_PER_SECOND = 0.005;
/** The wait taken when a throttle does not say how long (no Retry-After). */
const DEFAULT_WAIT_MS = 1_000;

/** How a pacer is set: the batch's limits, and the longest throttle it waits out. */
export interface PacerLimits {
  readonly maxRate: number | null;
  readonly maxInFlight: number | null;
  readonly maxThrottleWaitMs: number;
}

/** A request let through: call it once the request is over (answered, failed or never written). */
export type Admission = () => void;

/**
 * Paces a batch's requests in this process: none while the gateway asked the batch to wait (its Retry-After, from a
 * throttle here or, with a ledger, one another worker met), at most `maxRate` a second and at most `maxInFlight` at
 * once, and at the rate learnt from throttles (each sets it to 95% of the requests the gateway let through in the
 * last second, the throttles of one burst lowering it further; it grows again by 0.5% a second). A throttle longer than
 * `maxThrottleWaitMs`, or throttles that let no request through for that long, stop the batch (BatchThrottledError):
 * `stopped` says so, and `admit` refuses from then on.
 */
export class Pacer {
  readonly #limits: PacerLimits;
  #pausedUntil = 0;
  #learnt: number | null = null;
  #learntAt = 0;
  #nextAt = 0;
  #inFlight = 0;
  readonly #slotWaiters: (() => void)[] = [];
  /** When each request of the last second was let through, and when each throttle of it came (to know the gateway's rate). */
  readonly #recent: number[] = [];
  readonly #recentThrottles: number[] = [];
  /** Since when every answer has been a throttle (null: the last answer was not one). */
  #throttledSince: number | null = null;
  /** The first throttle after which the rate was last lowered: throttles of one burst lower it once. */
  #loweredUntil = 0;
  #throttles = 0;
  stopped: BatchThrottledError | null = null;

  readonly #learns: boolean;
  readonly #onThrottle: ((retryAfterMs: number, letThrough: number) => void) | undefined;

  /**
   * `learns` false: the rate is kept elsewhere (a ledger's slots, for every worker), this pacer keeps only pauses, and
   * a request that waited one out is not let through (its slot was given before the pause); `onThrottle` hears every
   * throttle met here, with the wait taken and the requests of this process the gateway let through in the last second.
   */
  constructor(limits: PacerLimits, options: { readonly learns?: boolean; readonly onThrottle?: (retryAfterMs: number, letThrough: number) => void } = {}) {
    this.#limits = limits;
    this.#learns = options.learns ?? true;
    this.#onThrottle = options.onThrottle;
  }

  /** Requests the gateway throttled so far. */
  get throttles(): number {
    return this.#throttles;
  }

  /** The rate in force (requests per second), or null when there is none. */
  get pace(): number | null {
    const learnt = this.#currentLearnt(performance.now());
    const { maxRate } = this.#limits;
    return learnt === null ? maxRate : maxRate === null ? learnt : Math.min(maxRate, learnt);
  }

  /** True while the gateway has asked the batch to wait. */
  get paused(): boolean {
    return this.#pausedUntil > performance.now();
  }

  /** True when requests go as they come: no limit, no rate learnt, no pause. */
  get free(): boolean {
    return this.#limits.maxRate === null && this.#limits.maxInFlight === null && this.#learnt === null && this.#pausedUntil <= performance.now();
  }

  /** Waits until a request may go, then lets it through; refuses (the batch's BatchThrottledError) once stopped. */
  async admit(signal?: AbortSignal): Promise<Admission> {
    for (;;) {
      if (this.stopped) throw this.stopped;
      signal?.throwIfAborted();
      const now = performance.now();
      if (this.#pausedUntil > now) {
        await sleep(this.#pausedUntil - now, undefined, { signal });
        // Its slot was given before the pause: the chunk goes back, to be leased again with a slot after it, so the
        // chunks that waited do not all go at the pause's end.
        if (!this.#learns) throw new PausedError();
        continue;
      }
      const { maxInFlight } = this.#limits;
      if (maxInFlight !== null && this.#inFlight >= maxInFlight) {
        await new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
        continue;
      }
      const rate = this.pace;
      const at = rate === null ? now : Math.max(now, this.#nextAt);
      if (at > now) {
        await sleep(at - now, undefined, { signal });
        continue;
      }
      if (rate !== null) this.#nextAt = at + (1000 / rate) * SPACING_MARGIN;
      return this.#letThrough(now);
    }
  }

  #letThrough(now: number): Admission {
    this.#inFlight += 1;
    this.#recent.push(now);
    while (this.#recent.length > 0 && this.#recent[0]! <= now - 1000) this.#recent.shift();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#inFlight -= 1;
      this.#slotWaiters.shift()?.();
    };
  }

  /** A request was answered (not throttled): throttles that let nothing through are over. */
  answered(): void {
    this.#throttledSince = null;
  }

  /**
   * The gateway throttled a request, asking to wait `retryAfterMs` (null: it did not say): every request of this
   * process waits it out, and the rate is lowered (once per burst of throttles). Returns false when the batch stops.
   */
  throttled(retryAfterMs: number | null): boolean {
    const now = performance.now();
    this.#throttles += 1;
    const wait = retryAfterMs ?? DEFAULT_WAIT_MS;
    this.#throttledSince ??= now;
    const { maxThrottleWaitMs } = this.#limits;
    if (wait > maxThrottleWaitMs || now + wait - this.#throttledSince > maxThrottleWaitMs) {
      this.stopped ??= new BatchThrottledError({ retryAfterMs, throttles: this.#throttles, maxThrottleWaitMs });
      for (const wake of this.#slotWaiters.splice(0)) wake();
      return false;
    }
    this.pause(wait);
    this.#recentThrottles.push(now);
    const letThrough = this.letThroughLastSecond(now);
    this.#onThrottle?.(wait, letThrough);
    if (this.#learns) {
      // Each throttle of one burst lowers the rate further (more of the last second's requests were throttled); a new
      // burst starts from the rate the batch had.
      const estimate = Math.max(1, DECREASE * letThrough);
      this.#learnt = now < this.#loweredUntil && this.#learnt !== null ? Math.min(this.#learnt, estimate) : estimate;
      this.#learntAt = now + wait;
      this.#loweredUntil = now + wait;
      this.#nextAt = Math.max(this.#nextAt, now + wait);
    }
    return true;
  }

  /** Requests of the last second the gateway let through: those sent, less those it throttled. */
  letThroughLastSecond(now = performance.now()): number {
    const since = now - 1000;
    while (this.#recent.length > 0 && this.#recent[0]! <= since) this.#recent.shift();
    while (this.#recentThrottles.length > 0 && this.#recentThrottles[0]! <= since) this.#recentThrottles.shift();
    return Math.max(0, this.#recent.length - this.#recentThrottles.length);
  }

  /** No request goes for `ms` from now (a throttle met here, or by another worker of the batch). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + ms);
  }

  /** The learnt rate grown since it was last set: by 0.5% a second, at least 0.2 requests per second per second. */
  #currentLearnt(now: number): number | null {
    if (this.#learnt === null) return null;
    const seconds = Math.max(0, now - this.#learntAt) / 1000;
    if (seconds <= 0) return this.#learnt;
    this.#learnt += Math.max(0.2, this.#learnt * INCREASE_PER_SECOND) * seconds;
    this.#learntAt = now;
    return this.#learnt;
  }
}
