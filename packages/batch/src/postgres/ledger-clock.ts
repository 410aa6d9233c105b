/** Answers remembered for the offset: a minute's worth of steps at a few a second. */
const SAMPLES = 128;

/**
 * The ledger's clock as this process reads it, for the send slots the ledger hands out in its own time. Each step's
 * answer says when the database made it; this process notes when the answer arrived (a monotonic wall clock). Their
 * difference is at least the true offset between the two clocks (the answer arrived after it was made), and close to it
 * for a prompt answer; the smallest of the last answers is the offset used. So a slot is never placed earlier here than
 * the database set it, and an answer held up on its way (a paused process, a host short of CPU, a slow network) does
 * not push its slots later: they are found late instead, and handed back rather than sent together with others'.
 */
export class LedgerClock {
  readonly #offsets: number[] = [];
  #next = 0;
  #offset = Number.POSITIVE_INFINITY;

  /** Notes an answer made at `databaseMs` (the database's epoch ms) that arrived at `receivedAtMs` (this process's). */
  observe(databaseMs: number, receivedAtMs: number = localWallMs()): void {
    if (!Number.isFinite(databaseMs)) return;
    this.#offsets[this.#next] = receivedAtMs - databaseMs;
    this.#next = (this.#next + 1) % SAMPLES;
    this.#offset = Math.min(...this.#offsets);
  }

  /** True once an answer was noted. */
  get known(): boolean {
    return Number.isFinite(this.#offset);
  }

  /** A database time (epoch ms) as a `performance.now()` time of this process; null before any answer was noted. */
  local(databaseMs: number): number | null {
    return Number.isFinite(this.#offset) ? databaseMs + this.#offset - performance.timeOrigin : null;
  }
}

/** This process's wall clock that never goes back: epoch ms from `performance`. */
export function localWallMs(): number {
  return performance.timeOrigin + performance.now();
}
