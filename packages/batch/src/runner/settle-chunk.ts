import { setTimeout as sleep } from 'node:timers/promises';
import type { OrderOutcome } from '../outcome.ts';
import type { QueryReconciliation } from '../reconcile/reconcile-by-query.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import { sendChunk } from '../send/send-chunk.ts';
import type { WorkerOptions, WorkerStats } from './worker-loop.ts';
import type { ChunkCommit, ClaimedChunk } from '../store/chunk-store.ts';
import type { ChunkTelemetry } from '../telemetry/chunk-telemetry.ts';
import type { ChunkSent } from '../send/send-chunk.ts';

/** How a leased chunk ended: settled (to commit), its lease lost after sending, or never sent (to hand back). */
export type ChunkEnd = { readonly commit: ChunkCommit } | { readonly lost: true } | { readonly unsent: true };

/**
 * Sends one leased chunk, only while its lease has the send margin left at the moment the request is written (else it
 * is handed back unsent), and settles each order. A chunk taken over from an earlier holder is not sent: once no send
 * of that holder can still be in flight (`quietWaitMs`), its orders are queried, and those not applied go to a new chunk.
 */
export async function settleChunk(
  options: WorkerOptions,
  reconciliation: QueryReconciliation,
  claimed: ClaimedChunk,
  stats: WorkerStats,
  telemetry: ChunkTelemetry,
): Promise<ChunkEnd> {
  const { store, operation } = options;
  let decided: OrderOutcome[] = [];
  let inDoubt: PendingOrder[];
  let sent = true;
  let quiet = false;
  if (claimed.takenOver && operation !== 'query') {
    // The earlier holder may have sent it: wait out its request, then a query decides (a send it had not proven does not count).
    // A stop meanwhile hands it back unsent (taken over still: the next holder waits and queries in its turn).
    const quietNow = claimed.quietWaitMs <= 0 || (await sleep(claimed.quietWaitMs, true, { signal: options.signal }).catch(() => false));
    if (!quietNow) return { unsent: true };
    stats.takenOver += 1;
    telemetry.takenOver(claimed.quietWaitMs, claimed.sent);
    inDoubt = claimed.orders;
    sent = claimed.sent;
  } else {
    await options.onStage?.('intent-written', claimed.chunk);
    // Its slot of the batch's rate (every worker's together), or a pause's end, comes first.
    const slot = (claimed.sendAt ?? 0) - performance.now();
    if (slot > 0 && !(await sleep(slot, true, { signal: options.signal }).catch(() => false))) return { unsent: true };
    // Sent only while the lease has the send margin left when the request is written; else handed back unsent.
    const answered = await telemetry.send(() => sendChunk(options.transport, operation, claimed, options), sentAttributes);
    if (answered.unsent) {
      if (answered.slotMissed) stats.slotsMissed += 1;
      return { unsent: true };
    }
    decided = answered.outcomes;
    inDoubt = answered.inDoubt;
    quiet = answered.timedOut;
    // Orders in doubt are recorded as sent (fenced) before they are queried.
    const recorded = await telemetry.settle(
      () => ({ 'gw.batch.decided': decided.length, 'gw.batch.in_doubt': inDoubt.length }),
      async () => inDoubt.length === 0 || store.markSent(claimed),
    );
    if (!recorded) {
      stats.refused += 1;
      return { lost: true };
    }
    await options.onStage?.('answered', claimed.chunk);
  }
  const reconciled =
    inDoubt.length > 0 ? await telemetry.reconcile(inDoubt.length, () => reconciliation.settle(inDoubt, sent, quiet)) : { outcomes: [], resend: [] };
  return { commit: { claimed, outcomes: [...decided, ...reconciled.outcomes], resend: reconciled.resend } };
}

/** What a send came to, for its span: unsent (and why), or the orders its answer decided and those left in doubt. */
function sentAttributes(sent: ChunkSent): Record<string, string | number | boolean> {
  if (sent.unsent) return { 'gw.batch.unsent': sent.slotMissed ? 'slot_missed' : sent.throttled ? 'throttled' : 'lease_or_pacer' };
  return { 'gw.batch.decided': sent.outcomes.length, 'gw.batch.in_doubt': sent.inDoubt.length, 'gw.batch.timed_out': sent.timedOut };
}
