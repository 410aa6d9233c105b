// The sandbox's throttle (UNKNOWNS U50): the quota in force, each known merchant account's state, and what they saw.
// Off (null) unless asked for; the request path then checks that null and nothing else.
import { AccountQuota, type ThrottleVerdict } from './account-quota.ts';
import { throttleQuota, type ThrottleQuota, type ThrottleSetting } from './setting.ts';

/** Counts of one wall-clock second (`at`: its start, ISO 8601 UTC). */
export interface ThrottleSecond {
  /** The second's start. */
  readonly at: string;
  /** Requests accepted in it. */
  readonly accepted: number;
  /** Requests answered 429 in it. */
  readonly throttled: number;
}

/** What the throttle saw of one merchant account since its counts were last reset. */
export interface AccountThrottleStats {
  /** The merchant account: its `merchant_id`. */
  readonly merchantId: string;
  /** Its `account_id`. */
  readonly accountId: string;
  /** Requests accepted (the quota let them in). */
  readonly accepted: number;
  /** Requests answered 429, whatever the reason. */
  readonly throttled: number;
  /** Of those: over the rate, over the requests in flight, met the `http429` fault. */
  readonly throttledBy: { readonly rate: number; readonly inFlight: number; readonly fault: number };
  /** Requests accepted and not yet answered, now. */
  readonly inFlight: number;
  /** The most requests in flight at once. */
  readonly maxInFlight: number;
  /** When the first request was accepted (ISO 8601 UTC; null: none yet). */
  readonly firstAcceptedAt: string | null;
  /** When the last accepted request was answered (ISO 8601 UTC; null: none yet). */
  readonly lastAnsweredAt: string | null;
  /** Counts by wall-clock second, oldest first, seconds with a request only (the last hour of them). */
  readonly perSecond: readonly ThrottleSecond[];
}

/** What the throttle saw: every merchant account's counts, and all of them together. */
export interface ThrottleStats {
  /** When counting began (the throttle was switched on, or the counts reset), ISO 8601 UTC. */
  readonly since: string;
  /** Requests accepted, every account together. */
  readonly accepted: number;
  /** Requests answered 429, every account together. */
  readonly throttled: number;
  /** Every account together, by wall-clock second. */
  readonly perSecond: readonly ThrottleSecond[];
  /** One entry per merchant account the sandbox accepts, in the order of the `merchants` option. */
  readonly accounts: readonly AccountThrottleStats[];
}

/** Milliseconds since the Unix epoch that never go back: the process's monotonic clock, set from the wall clock at its start. */
export function monotonicWallClock(): number {
  return performance.timeOrigin + performance.now();
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function secondsOf(entries: Iterable<[number, { accepted: number; throttled: number }]>): ThrottleSecond[] {
  return [...entries].map(([second, c]) => ({ at: new Date(second * 1000).toISOString(), accepted: c.accepted, throttled: c.throttled }));
}

function accountStats(a: AccountQuota): AccountThrottleStats {
  const { rate, inFlight, fault } = a.throttledBy;
  return {
    merchantId: a.merchantId,
    accountId: a.accountId,
    accepted: a.accepted,
    throttled: rate + inFlight + fault,
    throttledBy: { rate, inFlight, fault },
    inFlight: a.inFlight,
    maxInFlight: a.maxInFlight,
    firstAcceptedAt: iso(a.firstAcceptedAt),
    lastAnsweredAt: iso(a.lastAnsweredAt),
    perSecond: secondsOf(a.seconds),
  };
}

/** The throttle of a running sandbox. */
export class Throttle {
  #quota: ThrottleQuota | null;
  /** Each known merchant account, by merchant id (the sandbox knows one account per merchant). */
  readonly #accounts = new Map<string, AccountQuota>();
  readonly #now: () => number;
  #since: number;

  /** `merchants`: merchant id to account id; `now`: milliseconds that never go back (tests give their own). */
  constructor(merchants: ReadonlyMap<string, string>, setting: ThrottleSetting | null | undefined, now: () => number = monotonicWallClock) {
    for (const [merchantId, accountId] of merchants) this.#accounts.set(merchantId, new AccountQuota(merchantId, accountId, now));
    this.#quota = throttleQuota(setting);
    this.#now = now;
    this.#since = now();
  }

  /** The quota in force, or null: off (nothing is counted). */
  get quota(): ThrottleQuota | null {
    return this.#quota;
  }

  /** Replaces the quota (checked: SandboxThrottleError); null switches the throttle off. Switching it on starts the counts afresh. */
  set(setting: ThrottleSetting | null): ThrottleQuota | null {
    const quota = throttleQuota(setting);
    if (this.#quota === null && quota !== null) this.resetCounts();
    this.#quota = quota;
    return quota;
  }

  /** The merchant account a request names, when the sandbox knows it (requests naming another are refused by the verify step). */
  account(merchantId: string, accountId: string): AccountQuota | null {
    const account = this.#accounts.get(merchantId);
    return account !== undefined && account.accountId === accountId ? account : null;
  }

  /** Decides a request of `account` under the quota in force (which must be on): null when accepted, now in flight until `account.answered()`. */
  admit(account: AccountQuota): ThrottleVerdict | null {
    return account.admit(this.#quota!);
  }

  /** What was counted since `since`. */
  stats(): ThrottleStats {
    const accounts = [...this.#accounts.values()];
    const all = new Map<number, { accepted: number; throttled: number }>();
    for (const a of accounts) {
      for (const [second, c] of a.seconds) {
        const sum = all.get(second) ?? { accepted: 0, throttled: 0 };
        sum.accepted += c.accepted;
        sum.throttled += c.throttled;
        all.set(second, sum);
      }
    }
    const each = accounts.map(accountStats);
    return {
      since: new Date(this.#since).toISOString(),
      accepted: each.reduce((n, a) => n + a.accepted, 0),
      throttled: each.reduce((n, a) => n + a.throttled, 0),
      perSecond: secondsOf([...all].sort(([x], [y]) => x - y)),
      accounts: each,
    };
  }

  /** Starts the counts afresh (the quota, its window and the requests in flight stay). */
  resetCounts(): void {
    for (const account of this.#accounts.values()) account.resetCounts();
    this.#since = this.#now();
  }
}
