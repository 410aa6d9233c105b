import type { SandboxClock } from '../state/clock.ts';
import type { SandboxNotify } from '../operations/context.ts';
import type { AnswerDrift } from '../drift/answer-drift.ts';
import type { FaultPlan } from '../faults/fault-plan.ts';
import type { IdSource } from '../state/ids.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { SandboxDeps } from '../lifecycle/deps.ts';
import type { SandboxState } from '../state/state.ts';
import type { StateKeeper } from '../store/state-keeper.ts';
import type { Throttle } from '../throttle/throttle.ts';

/** What one advance of the clock did (control/clock-work.ts runs it). */
export interface DueWork {
  readonly now: string;
  readonly offsetMs: number;
  readonly expiredPayments: number;
  readonly subscriptionCharges: number;
}

/** What the control API and the console act on: the running sandbox's parts. */
export interface ControlDeps {
  readonly state: SandboxState;
  readonly clock: SandboxClock;
  readonly ids: IdSource;
  readonly faults: FaultPlan;
  /** The quota per merchant account and what it counted, switched by `PUT /sandbox/api/throttle`. */
  readonly throttle: Throttle;
  /** The answer-drift rules in force (option `answerDrift`), switched by `PUT /sandbox/api/drift`. */
  readonly drift: AnswerDrift;
  readonly notifier: Notifier;
  /** Signs and queues a notification from outside a request (operator actions, the clock). */
  readonly notify: SandboxNotify;
  /** What settling and expiring redirect payments act through (lifecycle/redirect-payment.ts). */
  readonly redirect: SandboxDeps;
  /** Where changes are kept: an answer reporting one waits for it (HTTP 503 when the state file could not keep it). */
  readonly keeper: StateKeeper;
  /** Advances the clock by `ms` and runs the work due (kept in the state file when there is one). */
  advanceClock(ms: number): DueWork;
  /** Empties the state and cancels queued notification retries; the server keeps its address. */
  reset(): void;
  /** The token that locks the control API and the console (option `controlToken`), or null: open on its address. */
  readonly controlToken: string | null;
  /** Largest request body the control API reads. */
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
}
