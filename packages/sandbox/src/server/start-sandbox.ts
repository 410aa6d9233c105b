// Wiring: a sandbox's parts from its options, its server, its expiry sweep, and the handle its caller holds. A
// request's path through it is handle-request.ts, then for /v1 the steps of v1-pipeline.ts (both beside this file).
import type { AnswerDriftRules } from '../drift/answer-drift.ts';
import type { DueWork } from '../control/control-deps.ts';
import { checkControlLock } from '../control/control-lock-error.ts';
import type { FaultKind, FaultRules, InjectableFaultKind, ThrottleFaultKind } from '../faults/fault-plan.ts';
import type { SandboxDeps } from '../lifecycle/deps.ts';
import type { SandboxOptions } from '../options/sandbox-options.ts';
import { startExpirySweep } from './expiry-sweep.ts';
import { listen, stopOnce } from './listen.ts';
import { advanceSandboxClock, controlDeps, resetSandbox } from './sandbox-actions.ts';
import { sandboxParts } from './sandbox-parts.ts';
import type { NotificationDelivery, SandboxState } from '../state/state.ts';
import type { ThrottleQuota, ThrottleSetting } from '../throttle/setting.ts';
import type { ThrottleStats } from '../throttle/throttle.ts';

/** A running sandbox: its address, its state, its faults, and how to stop it. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:40123` (the operations are under `/v1`). */
  readonly url: string;
  readonly port: number;
  /** Orders, subscriptions, payouts, notifications and the request log. */
  readonly state: SandboxState;
  /** Injects one-shot faults or replaces the random fault rules. */
  readonly faults: {
    inject(path: string, kind: FaultKind, times?: number): void;
    /** `http-429`: the next `times` requests to `path` get HTTP 429 with the path's rule's `retryAfterSeconds` (default 1). */
    inject(path: string, kind: ThrottleFaultKind, times?: number): void;
    setRules(rules: FaultRules): void;
  };
  /**
   * The quota per merchant account (option `throttle`, UNKNOWNS U50) and what it counted: `set(setting)` replaces the
   * quota (null: off; a bad setting throws SandboxThrottleError), `get()` reads it, `stats()` gives the counts,
   * `resetStats()` starts them afresh.
   */
  readonly throttle: {
    set(setting: ThrottleSetting | null): ThrottleQuota | null;
    get(): ThrottleQuota | null;
    stats(): ThrottleStats;
    resetStats(): void;
  };
  /** Makes answers differ from the spec (added, dropped, retyped fields; a wrong signature): `set({})` turns it off. */
  readonly answerDrift: { set(rules: AnswerDriftRules): void };
  /** Moves the sandbox clock forward by `ms`, then expires due redirect payments and charges due subscriptions. */
  advanceClock(ms: number): DueWork;
  /** Empties the state (and the state file), cancels queued notification retries and one-shot faults, starts the throttle's counts afresh; keeps the address. */
  reset(): void;
  /** What shopper pages, the expiry sweep and the control API act through (see lifecycle/redirect-payment.ts). */
  readonly deps: SandboxDeps;
  /** Resolves when every queued notification was delivered or gave up. */
  notificationsIdle(timeoutMs?: number): Promise<void>;
  /** Delivers a notification again with the same event id (by delivery id or event id); null when unknown. */
  resendNotification(id: number | string): NotificationDelivery | null;
  /** Stops listening and closes open connections. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a sandbox gateway on 127.0.0.1 implementing every /v1 operation of the spec. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkControlLock(options);
  const parts = await sandboxParts(options);
  const { state, faults, throttle, drift, notifier } = parts;
  const reset = (): void => resetSandbox(parts);
  const advanceClock = (ms: number): DueWork => advanceSandboxClock(parts, ms);
  parts.control = controlDeps(parts, options, { reset, advanceClock });
  const { server, port } = await listen(parts, options);
  // Notifications a state file held that were neither delivered nor out of attempts go on where they stopped.
  if (parts.store) for (const delivery of state.notifications) notifier.resume(delivery);
  const stop = stopOnce(parts, server, startExpirySweep(parts));
  return {
    url: parts.baseUrl,
    port,
    state,
    deps: parts.deps,
    faults: {
      inject: (path: string, kind: InjectableFaultKind, times?: number) => faults.inject(path, kind, times),
      setRules: (rules) => faults.setRules(rules),
    },
    throttle: { set: (setting) => throttle.set(setting), get: () => throttle.quota, stats: () => throttle.stats(), resetStats: () => throttle.resetCounts() },
    answerDrift: { set: (rules) => drift.set(rules) },
    advanceClock,
    reset,
    notificationsIdle: (timeoutMs) => notifier.idle(timeoutMs),
    resendNotification: (id) => notifier.resend(id),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
