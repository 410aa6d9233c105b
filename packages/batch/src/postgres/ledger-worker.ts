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
import type { ChunkCommit, ClaimedChunk, PgLedger } from './pg-ledger.ts';

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

/**
 * The worker's loop sleeps on it until a timeout or a wake-up (a chunk settled, the intake added one). A wake-up with
 * nobody asleep is kept for the next sleep, so one that comes while a step is in flight is not lost.
 */
export class WakeUp {
  #sleepers: (() => void)[] = [];
  #pending = false;

  /** Wakes one sleeper (one new chunk: more would only race for it). */
  wakeOne(): void {
    const resume = this.#sleepers.shift();
    if (resume) resume();
    else this.#pending = true;
  }

  /** Wakes every sleeper. */
  wake(): void {
    const sleepers = this.#sleepers;
    this.#sleepers = [];
    if (sleepers.length === 0) this.#pending = true;
    for (const resume of sleepers) resume();
  }

  /** Resolves after `ms`, or when woken (at once when a wake-up came since the last sleep). */
  sleep(ms: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
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
 * One worker of a batch kept in PostgreSQL: up to `concurrency` chunks in flight, leased (FOR UPDATE SKIP LOCKED),
 * sent, settled and committed under their lease's fencing token, until intake is over and every chunk is done. One
 * statement at a time does the worker's ledger work (a step): it commits every chunk settled since the last one and
 * leases as many chunks as there are free slots, so round trips fall as chunks finish together. An order's outcome is
 * reported (`onOutcome`) only once the step that committed it has returned. A chunk whose earlier holder's lease
 * expired may have been sent: its orders are queried first, never resent blindly.
 */
export async function runLedgerWorker(options: LedgerWorkerOptions): Promise<LedgerWorkerStats> {
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const stats: LedgerWorkerStats = { holder, chunks: 0, takenOver: 0, refused: 0 };
  const reconciliation = new QueryReconciliation(options);
  const wakeUp = options.wakeUp ?? new WakeUp();
  // Only the chunks in hand (leased, not committed) are renewed: a lease this worker lost track of expires.
  const inHand = new Set<number>();
  const renewal = setInterval(() => void options.ledger.renew(options.batch, holder, options.leaseMs, [...inHand]).catch(() => {}), Math.max(50, options.leaseMs / 3));
  const settled: ChunkCommit[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  const start = (claimed: ClaimedChunk): void => {
    inHand.add(claimed.chunk);
    stats.chunks += 1;
    const settling = settleChunk(options, reconciliation, claimed, stats)
      .then(
        (commit) => {
          if (commit) settled.push(commit);
          else inHand.delete(claimed.chunk);
        },
        (error: unknown) => void (failure ??= { error }),
      )
      .finally(() => {
        running.delete(settling);
        wakeUp.wake();
      });
    running.add(settling);
  };
  try {
    for (;;) {
      if (failure) break;
      const want = options.signal?.aborted ? 0 : options.concurrency - running.size;
      if (settled.length === 0 && want === 0) {
        if (running.size === 0) break;
        await wakeUp.sleep(options.pollMs);
        continue;
      }
      const commits = settled.splice(0);
      const step = await options.ledger.step(options.batch, holder, options.leaseMs, want, commits);
      for (const commit of commits) report(options, commit, step.held.has(commit.claimed.chunk), stats, wakeUp, inHand);
      for (const claimed of step.leased) start(claimed);
      if (settled.length > 0) continue;
      if (step.finished && running.size === 0) break;
      // Nothing to commit: the next step waits for a chunk to settle, the intake to add one, or the poll.
      await wakeUp.sleep(options.pollMs);
    }
  } catch (error) {
    failure ??= { error };
  } finally {
    clearInterval(renewal);
  }
  // The chunks still in flight end before the worker does (their outcomes are not committed, so not reported).
  await Promise.allSettled([...running]);
  if (failure) throw (failure as { error: unknown }).error;
  return stats;
}

/** After its step returned: a held commit's outcomes are durable and reported; a refused one's lease had passed on. */
function report(options: LedgerWorkerOptions, commit: ChunkCommit, held: boolean, stats: LedgerWorkerStats, wakeUp: WakeUp, inHand: Set<number>): void {
  inHand.delete(commit.claimed.chunk);
  if (!held) {
    // Another worker holds the chunk now (this one stalled past its lease): it settles the orders by query.
    stats.refused += 1;
    return;
  }
  // Orders sent again went into a new chunk: the next step leases it.
  if (commit.resend.length > 0) wakeUp.wakeOne();
  for (const outcome of commit.outcomes) options.onOutcome?.(outcome);
}

/** Sends one leased chunk (or, taken over, queries it first) and settles each order; null when its lease was lost. */
async function settleChunk(options: LedgerWorkerOptions, reconciliation: QueryReconciliation, claimed: ClaimedChunk, stats: LedgerWorkerStats): Promise<ChunkCommit | null> {
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
