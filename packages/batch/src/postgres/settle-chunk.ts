import { batchSpecOf } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { QueryReconciliation } from '../reconcile/reconcile-by-query.ts';
import { callOperation } from '../send/call-operation.ts';
import { classifyFailure } from '../send/classify-failure.ts';
import { matchAnswers } from '../send/match-answers.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { LedgerWorkerOptions, LedgerWorkerStats } from './ledger-worker.ts';
import type { ChunkCommit, ClaimedChunk } from './pg-ledger.ts';

/** Sends one leased chunk (or, taken over, queries it first) and settles each order; null when its lease was lost. */
export async function settleChunk(options: LedgerWorkerOptions, reconciliation: QueryReconciliation, claimed: ClaimedChunk, stats: LedgerWorkerStats): Promise<ChunkCommit | null> {
  const { ledger, batch, operation } = options;
  let decided: OrderOutcome[] = [];
  let inDoubt: PendingOrder[];
  let sent = true;
  if (claimed.takenOver && operation !== 'query') {
    // The earlier holder may have sent it: a query decides (a send it had not proven does not count).
    stats.takenOver += 1;
    inDoubt = claimed.orders;
    sent = claimed.sent;
  } else {
    let response: Record<string, unknown> | undefined;
    let error: unknown;
    try {
      response = (await callOperation(options.client, operation, claimed.orders.map((p) => p.order))) as Record<string, unknown>;
    } catch (e) {
      error = e;
    }
    const settled = response ? matchAnswers(operation, batchSpecOf(operation), claimed.orders, response) : classifyFailure(operation, claimed.orders, error);
    decided = settled.flatMap((s) => (s.outcome ? [s.outcome] : []));
    inDoubt = settled.filter((s) => s.outcome === null).map((s) => s.pending);
    if (inDoubt.length > 0 && !(await ledger.markSent(batch, claimed))) {
      stats.refused += 1;
      return null;
    }
  }
  const reconciled = inDoubt.length > 0 ? await reconciliation.settle(inDoubt, sent) : { outcomes: [], resend: [] };
  return { claimed, outcomes: [...decided, ...reconciled.outcomes], resend: reconciled.resend };
}
