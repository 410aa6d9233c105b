import { countOf, type OutcomeCounts } from './outcome.ts';

/** A progress event: how far the batch is, how fast it goes, and when it should end. */
export interface BatchProgress {
  /** Orders with a final outcome. */
  readonly done: number;
  /** Input orders when known in advance (an array), otherwise null. */
  readonly total: number | null;
  readonly counts: Readonly<OutcomeCounts>;
  /** Requests in flight. */
  readonly inFlight: number;
  /** Orders settled per second since the start. */
  readonly ratePerSecond: number;
  /** Seconds left at the current rate, when the total is known. */
  readonly etaSeconds: number | null;
  readonly elapsedMs: number;
}

/** Computes progress figures from counts and the clock. */
export function progressOf(options: { counts: OutcomeCounts; total: number | null; inFlight: number; startedAt: number; now: number }): BatchProgress {
  const { counts, total, inFlight, startedAt, now } = options;
  const done = countOf(counts);
  const elapsedMs = Math.max(1, now - startedAt);
  const ratePerSecond = (done * 1000) / elapsedMs;
  const etaSeconds = total === null || ratePerSecond === 0 ? null : Math.max(0, (total - done) / ratePerSecond);
  return { done, total, counts: { ...counts }, inFlight, ratePerSecond, etaSeconds, elapsedMs };
}
