// One merchant account's side of the throttle: the arrival times of its accepted requests in the last 1000 ms (a
// sliding window), its requests in flight, and what was counted for it. Times are milliseconds that never go back.
import type { ThrottleQuota } from './setting.ts';

/** The window the rate is counted over, in milliseconds. */
export const THROTTLE_WINDOW_MS = 1000;
/** How many wall-clock seconds of counts an account keeps (the totals are kept whole). */
export const THROTTLE_SECONDS_KEPT = 3600;

/** Why a request was answered 429: the rate, the requests in flight, or the `http429` fault. */
export type ThrottleReason = 'rate' | 'inFlight' | 'fault';

/** A request refused by the quota: why, and its Retry-After in whole seconds (at least 1). */
export interface ThrottleVerdict {
  readonly reason: ThrottleReason;
  readonly retryAfterSeconds: number;
}

/** The counts of one wall-clock second. */
interface SecondCounts {
  accepted: number;
  throttled: number;
}

/** One merchant account's quota state and counts. */
export class AccountQuota {
  readonly merchantId: string;
  readonly accountId: string;
  readonly #now: () => number;
  /** Arrival times of the accepted requests, ascending; those before `#head` have left the window. */
  #times: number[] = [];
  #head = 0;
  /** Requests accepted and not yet answered. */
  inFlight = 0;
  accepted = 0;
  readonly throttledBy: Record<ThrottleReason, number> = { rate: 0, inFlight: 0, fault: 0 };
  maxInFlight = 0;
  firstAcceptedAt: number | null = null;
  lastAnsweredAt: number | null = null;
  /** Counts by wall-clock second (Unix seconds), oldest first. */
  readonly seconds = new Map<number, SecondCounts>();
  #second = -1;
  #counts: SecondCounts = { accepted: 0, throttled: 0 };

  /** `now`: milliseconds since the Unix epoch that never go back. */
  constructor(merchantId: string, accountId: string, now: () => number) {
    this.merchantId = merchantId;
    this.accountId = accountId;
    this.#now = now;
  }

  /**
   * Decides a request arriving now under `quota`, and counts it: null when accepted (it is then in flight until
   * `answered`), else why not and how long until the quota has room again. Only accepted requests enter the window.
   */
  admit(quota: ThrottleQuota): ThrottleVerdict | null {
    const now = this.#now();
    const times = this.#times;
    while (this.#head < times.length && times[this.#head]! <= now - THROTTLE_WINDOW_MS) this.#head += 1;
    if (this.#head > 1024 && this.#head * 2 > times.length) {
      times.splice(0, this.#head);
      this.#head = 0;
    }
    const rate = quota.ratePerSecond;
    if (rate !== null && times.length - this.#head >= rate) {
      // Room again once the rate-th latest accepted request leaves the window.
      return this.#throttled(now, 'rate', times[times.length - rate]! + THROTTLE_WINDOW_MS - now);
    }
    if (quota.maxInFlight !== null && this.inFlight >= quota.maxInFlight) return this.#throttled(now, 'inFlight', THROTTLE_WINDOW_MS);
    times.push(now);
    this.accepted += 1;
    this.#at(now).accepted += 1;
    this.firstAcceptedAt ??= now;
    this.inFlight += 1;
    if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
    return null;
  }

  /** Counts a request the `http429` fault answered 429 (it takes no place in the quota). */
  throttledByFault(retryAfterSeconds: number): ThrottleVerdict {
    this.throttledBy.fault += 1;
    this.#at(this.#now()).throttled += 1;
    return { reason: 'fault', retryAfterSeconds };
  }

  /** An accepted request was answered (or its connection reset): it is no longer in flight. */
  answered(): void {
    this.inFlight -= 1;
    this.lastAnsweredAt = this.#now();
  }

  /** Forgets the counts (the window and the requests in flight stay: they are the quota, not what was seen). */
  resetCounts(): void {
    this.accepted = 0;
    this.throttledBy.rate = this.throttledBy.inFlight = this.throttledBy.fault = 0;
    this.maxInFlight = this.inFlight;
    this.firstAcceptedAt = this.lastAnsweredAt = null;
    this.seconds.clear();
    this.#second = -1;
  }

  #throttled(now: number, reason: ThrottleReason, waitMs: number): ThrottleVerdict {
    this.throttledBy[reason] += 1;
    this.#at(now).throttled += 1;
    return { reason, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** The counts of the wall-clock second of `now`. */
  #at(now: number): SecondCounts {
    const second = Math.floor(now / 1000);
    if (second === this.#second) return this.#counts;
    let counts = this.seconds.get(second);
    if (!counts) {
      this.seconds.set(second, (counts = { accepted: 0, throttled: 0 }));
      if (this.seconds.size > THROTTLE_SECONDS_KEPT) this.seconds.delete(this.seconds.keys().next().value!);
    }
    this.#second = second;
    this.#counts = counts;
    return counts;
  }
}
