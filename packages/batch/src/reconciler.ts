import type { QueriedOrder } from '@gw/types';
import type { BatchOperation } from './operation/batch-operations.ts';

/** What a query says about whether an unanswered request took effect for one order. */
export type ReconcileVerdict = 'applied' | 'not-applied' | 'unknown';

/** What a reconciler is given: the operation, the order as sent, and its 2.5 query record (undefined when not found). */
export interface ReconcileInput {
  readonly operation: Exclude<BatchOperation, 'query'>;
  readonly order: Readonly<Record<string, unknown>>;
  readonly queried: QueriedOrder | undefined;
}

/** Reads a queried order's status codes; the gateway's codes are not shown (UNKNOWNS U28), so this is the caller's. */
export type Reconciler = (input: ReconcileInput) => ReconcileVerdict;

/**
 * The default: the gateway's status codes are not shown, so a query cannot say whether a capture, cancel, review or
 * refund took effect, and every unanswered order is reported `unknown` with how to check it. Never guessed.
 */
export const cannotTellReconciler: Reconciler = () => 'unknown';
