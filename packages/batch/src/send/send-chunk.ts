import { NotAdmittedError, SendGuardSkippedError } from '../errors.ts';
import { isLeaseLapse, isSlotMissed, SendGuard } from '../lease/send-guard.ts';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { provenNotSent } from '../proven-not-sent.ts';
import { timedOut } from '../reconcile/reconcile-by-query.ts';
import type { ClaimedChunk } from '../store/chunk-store.ts';
import type { BatchTransport } from './batch-transport.ts';
import { throttleOf } from './paced-transport.ts';
import { classifyFailure } from './classify-failure.ts';
import { matchAnswers } from './match-answers.ts';
import type { PendingOrder } from './pending-order.ts';

/**
 * What one send of a chunk settled: the orders decided by the answer (or by a failure that proves the request never
 * left), the orders in doubt (to be queried, never resent blindly) and whether the call timed out (their query then
 * waits the send margin); or `unsent` when the lease check, or the slot's, refused the send before a byte was written.
 */
export type ChunkSent =
  | { readonly unsent: true; readonly throttled?: true; readonly slotMissed?: true }
  | { readonly unsent: false; readonly outcomes: OrderOutcome[]; readonly inDoubt: PendingOrder[]; readonly timedOut: boolean };

/**
 * Sends a chunk the caller holds (the journal's run and a ledger worker alike) as one request, and settles each order
 * from what came back. The only way a chunk is sent: it takes the held chunk, whose lease the store handed out, and
 * sends under a SendGuard that checks that lease at the moment the request is written, with the batch's time limit.
 * A send whose guard was skipped (an answer not vouched for, or a failure after sending with no check made) throws
 * SendGuardSkippedError and stops the batch, the chunk's orders left for the resume to query.
 */
export async function sendChunk(
  transport: BatchTransport,
  operation: BatchOperation,
  held: ClaimedChunk,
  timing: { readonly timeoutMs: number; readonly sendMarginMs: number },
): Promise<ChunkSent> {
  const orders = held.orders;
  const guard = new SendGuard(held.chunk, held.lease, { ...timing, sendBy: held.sendBy });
  let response: Record<string, unknown> | undefined;
  let error: unknown;
  try {
    response = (await transport.send(
      operation,
      orders.map((p) => p.order),
      guard,
    )) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof SendGuardSkippedError) throw e;
    // The lease ran short at the write, or the pacer let it not go: nothing left. A throttle the client's policy calls
    // not applied (HTTP 429) goes back the same way: the chunk is sent again once the gateway's wait is over.
    if (isLeaseLapse(e) || e instanceof NotAdmittedError) return { unsent: true };
    // Written past its slot of the batch's rate it could make a second hold more than the rate: it goes back for a new one.
    if (isSlotMissed(e)) return { unsent: true, slotMissed: true };
    if (throttleOf(e)?.outcome === 'not-applied') return { unsent: true, throttled: true };
    // A real client runs the check before every write, so a failure that may have followed a write, with no check
    // made, means the options never reached the wire.
    if (!guard.checked && !provenNotSent(e))
      throw new SendGuardSkippedError(held.chunk, 'the call failed after it may have been written, and the check before the write never ran');
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
