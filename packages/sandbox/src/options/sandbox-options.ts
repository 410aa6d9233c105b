import type { Signer, Verifier } from '@gw/signer-interface';
import type { ServerLimitOptions } from '@gw/types';
import type { FaultRules } from '../faults/fault-plan.ts';
import type { AnswerDriftRules } from '../drift/answer-drift.ts';
import type { NotifyOptions } from '../notifications/notifier.ts';
import type { ThrottleSetting } from '../throttle/setting.ts';

/** A merchant and account the sandbox accepts (seed 5.1: the caller is identified by these two in the body). */
export interface SandboxMerchant {
  readonly merchantId: string;
  readonly accountId: string;
}

/** The merchant every sandbox accepts unless told otherwise. */
export const SANDBOX_DEFAULT_MERCHANT: SandboxMerchant = Object.freeze({ merchantId: 'M100200', accountId: 'A300400' });

/** The secret of the sandbox's default reference signer (HMAC-SHA256): a test secret, public on purpose. */
export const SANDBOX_DEFAULT_SECRET = 'gw-sandbox-secret';

/** How to start a sandbox. Every option has a documented default. */
export interface SandboxOptions extends ServerLimitOptions {
  /** TCP port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * Host names the sandbox answers besides loopback ones (`127.0.0.0/8`, `[::1]`, `localhost`, `*.localhost`) and its
   * listening address; `.example.test` allows example.test and every name under it. A request with any other `Host`
   * (a page rebound to 127.0.0.1 by DNS) or none gets HTTP 403, on every route. Default none.
   */
  readonly allowedHosts?: readonly string[];
  /** Signs responses and notifications. Default: the reference HMAC-SHA256 signer with SANDBOX_DEFAULT_SECRET. */
  readonly signer?: Signer;
  /** Verifies request `encryption_data`. Default: the same reference signer. */
  readonly verifier?: Verifier;
  /** The sandbox's clock. Default `() => new Date()`. */
  readonly clock?: () => Date;
  /** Random faults per path, for tests (see FaultRule). Default none. */
  readonly faults?: FaultRules;
  /**
   * A quota per merchant account (UNKNOWNS U50): `ratePerSecond` (accepted requests in any 1000 ms) and `maxInFlight`
   * (accepted and not yet answered); a request over it is answered HTTP 429 with `Retry-After` at once, nothing
   * applied. `{}` counts requests without limiting them (`sandbox.throttle.stats()`). Default none: no quota, nothing
   * counted. A bad setting throws SandboxThrottleError listing every problem.
   */
  readonly throttle?: ThrottleSetting | null;
  /** Answers that differ from the spec by operation, to test a checking proxy (see AnswerDriftRule). Default none. */
  readonly answerDrift?: AnswerDriftRules;
  /** Addresses allowed to call IP-allow-listed operations (query, seed 5.4). Default loopback. */
  readonly allowIps?: readonly string[];
  /** Seed of faults and generated references. Default 1. */
  readonly seed?: number;
  /** Accepted merchants. Default [SANDBOX_DEFAULT_MERCHANT]. */
  readonly merchants?: readonly SandboxMerchant[];
  /** Notification delivery. */
  readonly notify?: NotifyOptions;
  /**
   * How long a checkout, alternative-method or challenged card payment waits for the shopper before it becomes
   * `expired` and its notification is sent (UNKNOWNS U22). Default 30 minutes (1_800_000 ms).
   */
  readonly redirectExpiryMs?: number;
  /**
   * Request members the spec does not list: `refuse` (the default: HTTP 400 naming each, as the client refuses them)
   * or `accept` (for a client that sends extra fields or uses `fieldNameOverrides`, UNKNOWNS U09). Card data on an
   * operation that does not carry it is refused either way.
   */
  readonly unknownFields?: 'refuse' | 'accept';
  /**
   * The control API (`/sandbox/api/`) and web console (`/sandbox/console`), on the sandbox's own address. `false` turns
   * both off (those paths answer 404 like any unknown path). Default on. Listening on an address other than loopback
   * with them on needs a `controlToken`.
   */
  readonly control?: boolean;
  /**
   * Locks the control API (`Authorization: Bearer <token>`) and the console (a login form that sets an HttpOnly,
   * SameSite=Strict cookie) for a sandbox shared by a team. At least 16 characters. Default none: open on its address.
   */
  readonly controlToken?: string;
  /**
   * Keeps the state in this SQLite file (node:sqlite) across restarts: orders with history and refunds, subscriptions,
   * payouts, notifications with attempts, the ledger, id sequences, the clock's offset. A change is answered only once
   * it is complete in the file (HTTP 503, nothing applied, when it cannot be written: a full disk); a file that cannot
   * be shown to hold every answered change is refused (SandboxStateIncompleteError). Default none: memory only.
   */
  readonly stateFile?: string;
}
