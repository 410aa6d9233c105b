import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { BatchClient } from '../batch-operation.ts';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { QueryReconciliation } from '../reconcile/reconcile-by-query.ts';
import type { Reconciler } from '../reconciler.ts';
import { callOperation } from '../send/call-operation.ts';
import { classifyFailure } from '../send/classify-failure.ts';
import { matchAnswers } from '../send/match-answers.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { ClaimedChunk, PgLedger } from './pg-ledger.ts';

/** How a worker runs: its lease, how often it looks for work, and what it reports. */
export interface LedgerWorkerOptions {
  readonly ledger: PgLedger;
  readonly batch: string;
  readonly client: BatchClient;
  readonly operation: BatchOperation;
  readonly concurrency: number;
  readonly reconcile: Reconciler;
  readonly maxResends: number;
  /** How long a lease lasts without renewal (renewed every third of it). Must exceed the client's request timeout. */
  readonly leaseMs: number;
  /** How long an idle slot waits before looking for a chunk again. */
  readonly pollMs: number;
  readonly onOutcome?: ((outcome: OrderOutcome) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Names this worker in the ledger (default host:pid:random). */
  readonly holder?: string | undefined;
  /** Wakes idle slots early (the intake in this process calls it after each chunk it adds). */
  readonly wakeUp?: WakeUp | undefined;
}

/** Idle slots sleep on it until a timeout or a `wake()`, whichever comes first. */
export class WakeUp {
  #sleepers: (() => void)[] = [];

  /** Wakes one sleeping slot (one new chunk: more would only race for it). */
  wakeOne(): void {
    this.#sleepers.shift()?.();
  }

  /** Wakes every sleeping slot. */
  wake(): void {
    const sleepers = this.#sleepers;
    this.#sleepers = [];
    for (const resume of sleepers) resume();
  }

  /** Resolves after `ms`, or when woken. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        const at = this.#sleepers.indexOf(done);
        if (at !== -1) this.#sleepers.splice(at, 1);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#sleepers.push(done);
    });
  }
}

/** What one worker did. */
export interface LedgerWorkerStats {
  readonly holder: string;
  chunks: number;
  takenOver: number;
  /** Writes the ledger refused because the lease had passed to another worker (its token was stale). */
  refused: number;
}

/**
 * One worker of a batch kept in PostgreSQL: `concurrency` slots each lease a chunk (FOR UPDATE SKIP LOCKED), send
 * it, settle its orders and commit them under the lease's fencing token, until intake is over and every chunk done.
 * A chunk whose earlier holder's lease expired may have been sent: its orders are queried first, never resent blindly.
 */
export async function runLedgerWorker(options: LedgerWorkerOptions): Promise<LedgerWorkerStats> {
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const stats: LedgerWorkerStats = { holder, chunks: 0, takenOver: 0, refused: 0 };
  const reconciliation = new QueryReconciliation(options);
  const wakeUp = options.wakeUp ?? new WakeUp();
  // Only the chunks in hand are renewed: a lease this worker lost track of expires and another worker takes it over.
  const inHand = new Set<number>();
  const renewal = setInterval(() => void options.ledger.renew(options.batch, holder, options.leaseMs, [...inHand]).catch(() => {}), Math.max(50, options.leaseMs / 3));
  try {
    const slot = async (): Promise<void> => {
      while (!options.signal?.aborted) {
        const claimed = await options.ledger.claim(options.batch, holder, options.leaseMs);
        if (claimed === null) {
          if (await options.ledger.finished(options.batch)) return;
          await wakeUp.sleep(options.pollMs);
          continue;
        }
        inHand.add(claimed.chunk);
        try {
          await settleChunk(options, reconciliation, claimed, stats, wakeUp);
        } finally {
          inHand.delete(claimed.chunk);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, slot));
  } finally {
    clearInterval(renewal);
  }
  return stats;
}

/** Sends one leased chunk (or, taken over, queries it first) and commits what became of each order. */
async function settleChunk(options: LedgerWorkerOptions, reconciliation: QueryReconciliation, claimed: ClaimedChunk, stats: LedgerWorkerStats, wakeUp: WakeUp): Promise<void> {
  const { ledger, batch, operation } = options;
  stats.chunks += 1;
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
      return;
    }
  }
  const reconciled = inDoubt.length > 0 ? await reconciliation.settle(inDoubt, sent) : { outcomes: [], resend: [] };
  const outcomes = [...decided, ...reconciled.outcomes];
  if (!(await ledger.commit(batch, claimed, outcomes, reconciled.resend))) {
    // Another worker holds the chunk now (this one stalled past its lease): it settles the orders by query.
    stats.refused += 1;
    return;
  }
  // Orders sent again went into a new chunk: an idle slot takes it now rather than at its next poll.
  if (reconciled.resend.length > 0) wakeUp.wakeOne();
  for (const outcome of outcomes) options.onOutcome?.(outcome);
}
