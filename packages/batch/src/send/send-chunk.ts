import type { CallOptions } from '@gw/client';
import type { BatchClient } from '../batch-operation.ts';
import { isLeaseLapse } from '../lease/local-lease.ts';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { timedOut } from '../reconcile/reconcile-by-query.ts';
import { callOperation } from './call-operation.ts';
import { classifyFailure } from './classify-failure.ts';
import { matchAnswers } from './match-answers.ts';
import type { PendingOrder } from './pending-order.ts';

/**
 * What one send of a chunk settled: the orders decided by the answer (or by a failure that proves the request never
 * left), the orders in doubt (to be queried, never resent blindly) and whether the call timed out (their query then
 * waits the send margin); or `unsent` when the caller's check refused the send before a byte was written.
 */
export type ChunkSent = { readonly unsent: true } | { readonly unsent: false; readonly outcomes: OrderOutcome[]; readonly inDoubt: PendingOrder[]; readonly timedOut: boolean };

/** Sends a chunk's orders as one request (the journal's runner and a ledger worker alike) and settles each from what came back. */
export async function sendChunk(client: BatchClient, operation: BatchOperation, orders: readonly PendingOrder[], call: CallOptions): Promise<ChunkSent> {
  let response: Record<string, unknown> | undefined;
  let error: unknown;
  try {
    response = (await callOperation(client, operation, orders.map((p) => p.order), call)) as Record<string, unknown>;
  } catch (e) {
    if (isLeaseLapse(e)) return { unsent: true };
    error = e;
  }
  const settled = response ? matchAnswers(operation, batchSpecOf(operation), orders, response) : classifyFailure(operation, orders, error);
  const outcomes: OrderOutcome[] = [];
  const inDoubt: PendingOrder[] = [];
  for (const { pending, outcome } of settled) {
    if (outcome) outcomes.push(outcome);
    else inDoubt.push(pending);
  }
  return { unsent: false, outcomes, inDoubt, timedOut: response === undefined && timedOut(error) };
}
