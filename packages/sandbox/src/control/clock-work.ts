// Advancing the sandbox clock, then running what became due: expiring abandoned redirect payments, charging subscriptions.
import type { ControlDeps, DueWork } from './control-deps.ts';
import { invalid } from './control-error.ts';
import { expireDuePayments } from '../lifecycle/redirect-payment.ts';
import { runSubscriptionCharges } from './subscription-charges.ts';

/** What running due work needs. */
export type DueWorkDeps = Pick<ControlDeps, 'state' | 'clock' | 'ids' | 'notify' | 'redirect'>;

/** The clock as the control API shows it. */
export function clockJson(deps: DueWorkDeps) {
  return { now: deps.clock.now().toISOString(), offsetMs: deps.clock.offsetMs };
}

/** Runs the work due at the sandbox's current time. */
export function runDueWork(deps: DueWorkDeps): DueWork {
  const now = deps.clock.now();
  const expiredPayments = expireDuePayments(deps.redirect, now);
  const subscriptionCharges = runSubscriptionCharges(deps, now);
  return { now: now.toISOString(), offsetMs: deps.clock.offsetMs, expiredPayments, subscriptionCharges };
}

/** Advances the clock by `ms` (0 or more), then runs the work due. */
export function advanceClock(deps: DueWorkDeps, ms: number): DueWork {
  deps.clock.advance(ms);
  return runDueWork(deps);
}

/** Reads `{ "seconds": n }` (n from 0 to ten years). */
export function advanceSeconds(body: Record<string, unknown>): number {
  const seconds = body.seconds;
  const problems = [];
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 10 * 366 * 86_400)
    problems.push({ path: '/seconds', message: 'must be a number of seconds from 0 to ten years' });
  for (const name of Object.keys(body)) if (name !== 'seconds') problems.push({ path: `/${name}`, message: 'is not a member (seconds)' });
  if (problems.length > 0) throw invalid('bad clock advance', problems);
  return seconds as number;
}
