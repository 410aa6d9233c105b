// What the handle and the control API do to a running sandbox as a whole, and the parts the control API gets.
import { advanceClock } from '../control/clock-work.ts';
import type { ControlDeps, DueWork } from '../control/control-deps.ts';
import type { SandboxOptions } from '../options/sandbox-options.ts';
import type { SandboxParts } from './sandbox-parts.ts';

/** Empties the state (and the state file), cancels queued notification retries and one-shot faults, starts the throttle's counts afresh. */
export function resetSandbox(parts: SandboxParts): void {
  parts.notifier.cancelPending();
  parts.faults.clearQueued();
  parts.throttle.resetCounts();
  parts.state.clear();
}

/** Moves the clock forward by `ms`, runs the work due, and has the state file keep what it changed. */
export function advanceSandboxClock(parts: SandboxParts, ms: number): DueWork {
  const work = advanceClock({ state: parts.state, clock: parts.sandboxClock, ids: parts.ids, notify: parts.notify, redirect: parts.deps }, ms);
  parts.store?.schedule();
  return work;
}

/** The control API and console's parts, or null when the options turn them off (`control: false`). */
export function controlDeps(parts: SandboxParts, options: SandboxOptions, actions: Pick<ControlDeps, 'reset' | 'advanceClock'>): ControlDeps | null {
  if (options.control === false) return null;
  const { state, sandboxClock: clock, ids, faults, throttle, drift, notifier, notify, deps: redirect, keeper, limits } = parts;
  const { reset, advanceClock } = actions;
  return {
    state,
    clock,
    ids,
    faults,
    throttle,
    drift,
    notifier,
    notify,
    redirect,
    keeper,
    reset,
    advanceClock,
    controlToken: options.controlToken ?? null,
    maxBodyBytes: limits.maxBodyBytes,
    bodyTimeoutMs: limits.bodyTimeoutMs,
  };
}
