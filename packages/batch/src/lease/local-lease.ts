import { HeldLease } from './held-lease.ts';

/**
 * A ledger chunk's lease as this worker knows it: valid until a moment on the monotonic clock (`performance.now()`),
 * counted from when the statement that granted or renewed it was sent. The database starts its own count later (when
 * it runs the statement), so the local end is never after the database's, whatever the two machines' wall clocks say.
 */
export class LocalLease extends HeldLease {
  #validUntil: number;

  constructor(sentAt: number, leaseMs: number) {
    super();
    this.#validUntil = sentAt + leaseMs;
  }

  /** A renewal sent at `sentAt` was applied: the lease runs `leaseMs` from then. */
  renewed(sentAt: number, leaseMs: number): void {
    this.#validUntil = Math.max(this.#validUntil, sentAt + leaseMs);
  }

  remainingMs(now = performance.now()): number {
    return this.#validUntil - now;
  }
}
