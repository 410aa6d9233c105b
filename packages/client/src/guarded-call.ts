import type { CallOptions } from './call-operation.ts';

/** Brands a Guarded answer; never exported, so no object literal is one. */
declare const guardedAnswer: unique symbol;

/**
 * The answer of a call made with a `GuardedCall`, vouched for by it: only `GuardedCall.answered` makes one. A caller
 * that needs its options honoured (a batch worker's lease check and time limit) asks for this type, so a wrapper that
 * drops the options does not type-check (it returns the bare answer), and `answered` refuses at run time when the
 * check never ran.
 */
export interface Guarded<A> {
  readonly [guardedAnswer]: A;
}

/**
 * Per-call options whose caller must see them honoured: the time limit and the check before each write are required,
 * and the client hands its answer back through `answered` (batch operations only: see their overloads).
 */
export interface GuardedCall extends CallOptions {
  readonly timeoutMs: number;
  readonly beforeSend: () => void;
  /** The answer of the call made with these options, vouched for; throws when `beforeSend` never ran (the options were dropped). */
  answered<A>(answer: A): Guarded<A>;
}

/** True when a call's options ask for their answer to be vouched for. */
export function isGuardedCall(options: CallOptions | undefined): options is GuardedCall {
  return typeof (options as Partial<GuardedCall> | undefined)?.answered === 'function';
}
