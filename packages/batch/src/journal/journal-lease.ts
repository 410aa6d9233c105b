import { HeldLease } from '../lease/held-lease.ts';

/**
 * A journal chunk's lease: the run is the journal's only holder, so it never expires while the run holds the
 * journal's lock, and is gone the moment it does not (the lock file removed by hand, or replaced by another run).
 * `held` is the lock's fence, checked as each request is written.
 */
export class JournalLease extends HeldLease {
  readonly #held: () => boolean;

  constructor(held: () => boolean) {
    super();
    this.#held = held;
  }

  remainingMs(): number {
    return this.#held() ? Infinity : -Infinity;
  }

  override lapse(): string {
    return "gone: the journal's lock is no longer this run's";
  }
}
