import type { Guarded, GuardedCall } from '@gw/client';
import { LeaseLapsedError, SendGuardSkippedError, SlotMissedError } from '../errors.ts';
import type { HeldLease } from './held-lease.ts';

/** An answer a SendGuard vouched for: made only by `SendGuard.answered`, opened only by the same guard. */
class GuardedAnswer {
  readonly guard: SendGuard;
  readonly answer: unknown;

  constructor(guard: SendGuard, answer: unknown) {
    this.guard = guard;
    this.answer = answer;
  }
}

/**
 * The per-call options of one chunk's send, as the client must honour them (a `GuardedCall`): the batch's time limit,
 * and the check run immediately before each write to the socket, which lets the request out only while the chunk's
 * held lease has the send margin left (else LeaseLapsedError, and the client reports it not sent) and, with a slot of
 * the batch's rate, while the slot holds (`sendBy`, else SlotMissedError). The client hands
 * its answer back through `answered`, which refuses when the check never ran: a transport or wrapper that dropped
 * these options (so the request left with no lease check and no time limit) stops the batch (SendGuardSkippedError).
 */
export class SendGuard implements GuardedCall {
  readonly timeoutMs: number;
  readonly beforeSend: () => void;
  readonly #chunk: number;
  #checked = false;

  constructor(chunk: number, lease: HeldLease, options: { readonly timeoutMs: number; readonly sendMarginMs: number; readonly sendBy?: number | undefined }) {
    this.#chunk = chunk;
    this.timeoutMs = options.timeoutMs;
    const margin = options.sendMarginMs;
    const sendBy = options.sendBy ?? Infinity;
    this.beforeSend = () => {
      this.#checked = true;
      if (!lease.lasts(margin)) throw new LeaseLapsedError(chunk, lease.lapse(margin));
      const late = performance.now() - sendBy;
      if (late > 0) throw new SlotMissedError(chunk, late);
    };
  }

  /** True once the check ran for a write of this call. */
  get checked(): boolean {
    return this.#checked;
  }

  answered<A>(answer: A): Guarded<A> {
    if (!this.#checked) throw new SendGuardSkippedError(this.#chunk, 'its answer came back though the check before the write never ran');
    return new GuardedAnswer(this, answer) as unknown as Guarded<A>;
  }

  /** The answer this guard vouched for; anything else (a bare answer: the options were dropped) stops the batch. */
  opened(guarded: unknown): unknown {
    if (!(guarded instanceof GuardedAnswer) || guarded.guard !== this)
      throw new SendGuardSkippedError(
        this.#chunk,
        'its answer came back without the guard that checks the lease at the write (the per-call options were dropped)',
      );
    return guarded.answer;
  }
}

/** True when `error` is a client's NotSentError caused by a send guard's lease check (the chunk was never written). */
export function isLeaseLapse(error: unknown): boolean {
  return (error as { cause?: unknown } | null)?.cause instanceof LeaseLapsedError;
}

/** True when `error` is a client's NotSentError caused by a send guard's slot check (the chunk was never written). */
export function isSlotMissed(error: unknown): boolean {
  return (error as { cause?: unknown } | null)?.cause instanceof SlotMissedError;
}
