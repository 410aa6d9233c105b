/**
 * The worker's loop sleeps on it until a timeout or a wake-up (a chunk settled, the intake added one). A wake-up with
 * nobody asleep is kept for the next sleep, so one that comes while a step is in flight is not lost.
 */
export class WakeUp {
  #sleepers: (() => void)[] = [];
  #pending = false;

  /** Wakes one sleeper (one new chunk: more would only race for it). */
  wakeOne(): void {
    const resume = this.#sleepers.shift();
    if (resume) resume();
    else this.#pending = true;
  }

  /** Wakes every sleeper. */
  wake(): void {
    const sleepers = this.#sleepers;
    this.#sleepers = [];
    if (sleepers.length === 0) this.#pending = true;
    for (const resume of sleepers) resume();
  }

  /** Resolves after `ms`, or when woken (at once when a wake-up came since the last sleep). */
  sleep(ms: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        const at = this.#sleepers.indexOf(done);
        if (at !== -1) this.#sleepers.splice(at, 1);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#sleepers.push(done);
    });
  }
}
