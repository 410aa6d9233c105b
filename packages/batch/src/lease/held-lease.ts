/**
 * A chunk's lease as the worker holding it knows it: only a store makes one (a ledger's step or a journal's run),
 * and a chunk is sent only through `sendChunk`, which takes it and checks it at the moment the request is written
 * (`SendGuard`). Subclasses say how long it has left: a ledger lease on the monotonic clock, a journal's run for as
 * long as it holds the journal's lock (its fence).
 */
export abstract class HeldLease {
  /** Milliseconds left (negative once it ended; Infinity while a lease that does not expire is held). */
  abstract remainingMs(now?: number): number;

  /** True while at least `marginMs` of the lease is left: what a send needs. */
  lasts(marginMs: number): boolean {
    return this.remainingMs() >= marginMs;
  }

  /** Why the lease is not enough to send now, for the error that keeps the chunk unsent. */
  lapse(marginMs: number): string {
    return `${Math.round(this.remainingMs())} ms left, under the ${marginMs} ms send margin`;
  }
}
