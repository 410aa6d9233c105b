/** The sandbox's clock: the `clock` option (or the system clock) plus an offset the control API can advance. */
export class SandboxClock {
  readonly #base: () => Date;
  #offsetMs = 0;

  constructor(base: () => Date = () => new Date()) {
    this.#base = base;
  }

  /** The sandbox's current time. */
  now(): Date {
    return this.#offsetMs === 0 ? this.#base() : new Date(this.#base().getTime() + this.#offsetMs);
  }

  /** Moves the clock forward by `ms` milliseconds (never backwards: a negative or non-finite value is refused). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the sandbox clock only moves forward: ${ms} ms`);
    this.#offsetMs += ms;
  }

  /** How far the clock was advanced in all, in milliseconds. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Restores an offset kept in a state file. */
  restoreOffset(ms: number): void {
    this.#offsetMs = ms;
  }
}
