/**
 * A chunk's lease as this worker knows it: valid until a moment on the monotonic clock (`performance.now()`), counted
 * from when the statement that granted or renewed it was sent. The database starts its own count later (when it runs
 * the statement), so the local end is never after the database's, whatever the two machines' wall clocks say.
 */
export class LocalLease {
  #validUntil: number;

  constructor(sentAt: number, leaseMs: number) {
    this.#validUntil = sentAt + leaseMs;
  }

  /** A renewal sent at `sentAt` was applied: the lease runs `leaseMs` from then. */
  renewed(sentAt: number, leaseMs: number): void {
    this.#validUntil = Math.max(this.#validUntil, sentAt + leaseMs);
  }

  /** Milliseconds left (negative once it ended). */
  remainingMs(now = performance.now()): number {
    return this.#validUntil - now;
  }

  /** True while at least `marginMs` of the lease is left: what a send needs. */
  lasts(marginMs: number): boolean {
    return this.remainingMs() >= marginMs;
  }
}

/** Thrown by a send guard: the lease has less than the margin left, so the chunk is not sent (nothing was written). */
export class LeaseLapsedError extends Error {
  override readonly name = 'LeaseLapsedError';
  readonly chunk: number;

  constructor(chunk: number, remainingMs: number, marginMs: number) {
    super(`the lease on chunk ${chunk} has ${Math.round(remainingMs)} ms left, under the ${marginMs} ms send margin: not sent`);
    this.chunk = chunk;
  }
}

/**
 * The check a worker runs immediately before a chunk's request is written (the client's `beforeSend`): it sends only
 * while its lease has at least `marginMs` left, so every byte leaves while the chunk is provably its own.
 */
export function sendGuard(chunk: number, lease: LocalLease, marginMs: number): () => void {
  return () => {
    if (!lease.lasts(marginMs)) throw new LeaseLapsedError(chunk, lease.remainingMs(), marginMs);
  };
}

/** True when `error` is a client's NotSentError caused by a send guard (the chunk was never written). */
export function isLeaseLapse(error: unknown): boolean {
  return (error as { cause?: unknown } | null)?.cause instanceof LeaseLapsedError;
}
