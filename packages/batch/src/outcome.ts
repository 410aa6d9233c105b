import type { ValidationProblem } from '@gw/types';

/**
 * The one final outcome of an input order:
 * - `succeeded`: the gateway answered success for it (or a query after an unanswered request showed it applied);
 * - `failed`: the gateway answered failure, or the request was refused whole, or it provably never left, or a query
 *   showed it not applied after its last allowed send (safe to send again in each case but the first two);
 * - `rejected`: refused before sending (invalid, or a duplicate of an earlier input order);
 * - `unknown`: sent, no answer, and reconciliation could not tell: check it by hand (`reconcile` says how).
 */
export type OutcomeKind = 'succeeded' | 'failed' | 'rejected' | 'unknown';

/** One order's outcome, keyed by its position in the input (0-based). */
export interface OrderOutcome {
  readonly index: number;
  readonly kind: OutcomeKind;
  readonly order: Readonly<Record<string, unknown>>;
  /** The gateway's per-order result element, when there was one. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** Why it failed, was rejected or is unknown, in words (the gateway's `error_message` when it gave one). */
  readonly reason?: string;
  /** For `rejected`: every problem found. */
  readonly problems?: readonly ValidationProblem[];
  /** True when the outcome was established by a query after an unanswered request. */
  readonly reconciled?: boolean;
  /** For `unknown`: how to settle it. */
  readonly reconcile?: string;
}

/** Counts of outcomes so far. */
export interface OutcomeCounts {
  succeeded: number;
  failed: number;
  rejected: number;
  unknown: number;
}

/** How many outcomes the counts hold, of every kind. */
export function countOf(counts: OutcomeCounts): number {
  return counts.succeeded + counts.failed + counts.rejected + counts.unknown;
}

/** A fresh zeroed count. */
export function emptyCounts(): OutcomeCounts {
  return { succeeded: 0, failed: 0, rejected: 0, unknown: 0 };
}
