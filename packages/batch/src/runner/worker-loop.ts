import { setTimeout } from 'node:timers/promises';
import type { BatchTransport } from '../send/batch-transport.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { QueryReconciliation } from '../reconcile/reconcile-by-query.ts';
import type { Reconciler } from '../reconciler.ts';
import type { ChunkCommit, ChunkStore, ClaimedChunk } from '../store/chunk-store.ts';
import type { StageHook } from '../settings/batch-settings.ts';
import { settleChunk, type ChunkEnd } from './settle-chunk.ts';
import { WakeUp } from './wake-up.ts';
import type { Pacer } from './pacer.ts';
import { NOOP_RUN, type RunTelemetry } from '../telemetry/run-telemetry.ts';

/**
 * How long a step waits for more chunks to settle when nothing waits on it (a chunk is held ready for the next free
 * slot and requests are still out): commits are behind the sends, so the answers of a few milliseconds share one
 * statement or journal write instead of one each.
 */
const COMMITS_GATHER_MS = 5;

/** How a worker runs: its store, its lease, how often it looks for work, and what it reports. */
export interface WorkerOptions extends StageHook {
  readonly store: ChunkStore;
  readonly holder: string;
  /** How chunks and queries reach the gateway (the client, adapted once: `transportOf`). */
  readonly transport: BatchTransport;
  readonly operation: BatchOperation;
  readonly concurrency: number;
  readonly reconcile: Reconciler;
  readonly maxResends: number;
  /** How long a lease lasts without renewal (renewed every third of it). Exceeds timeoutMs + sendMarginMs. */
  readonly leaseMs: number;
  /** Each request's time limit (passed with every call): how long a send may still be in flight. */
  readonly timeoutMs: number;
  /** A chunk is sent only while its lease has at least this long left, checked just before the request is written. */
  readonly sendMarginMs: number;
  /** How long an idle slot waits before looking for a chunk again. */
  readonly pollMs: number;
  readonly onOutcome?: ((outcome: OrderOutcome) => void) | undefined;
  /** Called after each step (progress is read then when the store keeps its counts locally). */
  readonly onStep?: ((inFlight: number) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Wakes idle slots early (the intake in this process calls it after each chunk it adds). */
  readonly wakeUp?: WakeUp | undefined;
  /** Paces the requests; once it stops (a throttle past the longest wait), so does the worker. */
  readonly pacer?: Pacer | undefined;
  /** The run's telemetry: a span per chunk and per step (none without OpenTelemetry). */
  readonly telemetry?: RunTelemetry | undefined;
}

/** What one worker did. */
export interface WorkerStats {
  readonly holder: string;
  chunks: number;
  takenOver: number;
  /** Writes the ledger refused because the lease had passed to another worker (its token was stale). */
  refused: number;
  /** Chunks handed back unsent because this worker came too late for their slot of the batch's rate. */
  slotsMissed: number;
}

/**
 * One worker of a batch, over any ChunkStore: up to `concurrency` chunks in flight, leased, sent, settled and committed
 * under their lease's fencing token, until intake is over and every chunk is done. One store call at a time does the
 * worker's store work (a step): it commits every chunk settled since the last one and leases chunks for the free
 * slots plus as many again held ready, so a slot that frees takes its next chunk at once instead of waiting for the
 * store. An order's outcome is reported (`onOutcome`) only once the step that committed it has returned. A chunk an
 * earlier holder may have sent (its lease expired, or the run that held it died) is queried first.
 * On a stop or a failure the chunks held ready and not sent are handed back (ready again, as they were).
 */
export async function runWorker(options: WorkerOptions): Promise<WorkerStats> {
  const loop = new WorkerLoop(options);
  // Only the chunks in hand (leased, not committed) are renewed: a lease this worker lost track of expires.
  // A lease that never ends (the journal's one holder) is never renewed.
  const renewal = Number.isFinite(options.leaseMs)
    ? setInterval(() => void options.store.renew([...loop.inHand.values()]).catch(() => {}), Math.max(50, options.leaseMs / 3))
    : undefined;
  try {
    await loop.run();
  } catch (error) {
    loop.failure ??= { error };
  } finally {
    clearInterval(renewal);
  }
  // The chunks in flight end before the worker does (outcomes not committed are not reported); the ones not sent go back.
  await Promise.allSettled([...loop.running]);
  await Promise.allSettled([...loop.durable]);
  await loop.handBack([...loop.ready.splice(0), ...loop.unsent.splice(0)]);
  if (loop.failure) throw loop.failure.error;
  return loop.stats;
}

/** The state of one worker: chunks held ready, in flight, settled and waiting for a step, in hand (leased). */
class WorkerLoop {
  readonly stats: WorkerStats;
  readonly inHand = new Map<number, ClaimedChunk>();
  readonly ready: ClaimedChunk[] = [];
  readonly running = new Set<Promise<void>>();
  /**
   * Chunks taken over from an earlier holder and waiting until none of its sends can still be in flight (then
   * queried): they send nothing, so they hold no slot; the slots go on sending other chunks meanwhile.
   */
  readonly #quieting = new Set<number>();
  /** Steps whose commits are on their way to durable storage: their outcomes are reported when they are. */
  readonly durable = new Set<Promise<void>>();
  readonly #settled: ChunkCommit[] = [];
  /** Chunks never sent (their lease ran short first), to hand back with the next step. */
  readonly unsent: ClaimedChunk[] = [];
  readonly #options: WorkerOptions;
  readonly #reconciliation: QueryReconciliation;
  readonly #wakeUp: WakeUp;
  readonly #telemetry: RunTelemetry;
  failure: { error: unknown } | null = null;

  constructor(options: WorkerOptions) {
    this.#options = options;
    this.stats = { holder: options.holder, chunks: 0, takenOver: 0, refused: 0, slotsMissed: 0 };
    this.#reconciliation = new QueryReconciliation({ ...options, quietMs: options.sendMarginMs });
    this.#wakeUp = options.wakeUp ?? new WakeUp();
    this.#telemetry = options.telemetry ?? NOOP_RUN;
  }

  get #stopping(): boolean {
    return this.failure !== null || (this.#options.signal?.aborted ?? false);
  }

  /** Steps until the batch is over (or a stop): each commits what settled and leases for free and ready slots. */
  async run(): Promise<void> {
    const { store, concurrency, pollMs } = this.#options;
    for (;;) {
      if (this.failure) return;
      await this.handBack(this.unsent.splice(0));
      const want = this.#stopping ? 0 : concurrency + store.heldReady(concurrency) - this.#sending - this.ready.length;
      if (this.#settled.length === 0 && want === 0) {
        if (this.running.size === 0) return;
        await this.#wakeUp.sleep(pollMs);
        continue;
      }
      if (this.#settled.length > 0 && this.ready.length > 0 && this.#sending > 0 && !this.#stopping) await setTimeout(COMMITS_GATHER_MS);
      const commits = this.#settled.splice(0);
      const step = await this.#telemetry.step(commits.length, want, () => store.step(commits, want));
      if (step.durable) this.#reportWhenDurable(step.durable, commits, step.held);
      else for (const commit of commits) this.#report(commit, step.held.has(commit.claimed.chunk));
      for (const claimed of step.leased) this.inHand.set(claimed.chunk, claimed);
      this.ready.push(...step.leased);
      this.#fill();
      this.#options.onStep?.(this.running.size);
      if (this.#settled.length > 0 || this.unsent.length > 0) continue;
      if (step.finished && this.running.size === 0 && this.ready.length === 0) {
        await Promise.all(this.durable);
        return;
      }
      // Nothing to commit: the next step waits for a chunk to settle, the intake to add one, or the poll.
      await this.#wakeUp.sleep(pollMs);
    }
  }

  /** Reports commits once the store says they are durable; a store that fails to make them so stops the worker. */
  #reportWhenDurable(durable: Promise<void>, commits: readonly ChunkCommit[], held: ReadonlySet<number>): void {
    const reported: Promise<void> = durable
      .then(
        () => {
          for (const commit of commits) this.#report(commit, held.has(commit.claimed.chunk));
        },
        (error: unknown) => void (this.failure ??= { error }),
      )
      .finally(() => {
        this.durable.delete(reported);
        this.#wakeUp.wake();
      });
    this.durable.add(reported);
  }

  /** Hands chunks this worker never sent back to the store (ready for any worker, as they were), under their tokens. */
  async handBack(chunks: ClaimedChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    for (const claimed of chunks) this.inHand.delete(claimed.chunk);
    await this.#options.store.release(chunks).catch(() => {});
  }

  /** Chunks on a slot: running, less those waiting out an earlier holder's sends. */
  get #sending(): number {
    return this.running.size - this.#quieting.size;
  }

  /** Starts chunks held ready on the free slots; one whose lease has less than the send margin left goes back unsent. */
  #fill(): void {
    // While the store cannot be reached nothing new starts: its outcomes could not be recorded.
    if (this.#stopping || this.#options.store.unreachable) return;
    // Chunks that first wait out an earlier holder's sends start at once, on no slot.
    for (let i = 0; i < this.ready.length;) {
      const claimed = this.ready[i]!;
      if (claimed.takenOver && claimed.quietWaitMs > 0) this.#start(...(this.ready.splice(i, 1) as [ClaimedChunk]));
      else i += 1;
    }
    while (!this.#stopping && !this.#options.store.unreachable && this.#sending < this.#options.concurrency && this.ready.length > 0) {
      const claimed = this.ready.shift()!;
      if (!claimed.takenOver && !claimed.lease.lasts(this.#options.sendMarginMs)) this.unsent.push(claimed);
      else this.#start(claimed);
    }
  }

  #start(claimed: ClaimedChunk): void {
    this.stats.chunks += 1;
    if (claimed.takenOver && claimed.quietWaitMs > 0) this.#quieting.add(claimed.chunk);
    const chunk = this.#telemetry.chunk(claimed);
    const settling = chunk
      .within(() => settleChunk(this.#options, this.#reconciliation, claimed, this.stats, chunk))
      .then(
        (end) => {
          chunk.end(...chunkEnd(end));
          if ('commit' in end) this.#settled.push(end.commit);
          else if ('unsent' in end) this.unsent.push(claimed);
          else this.inHand.delete(claimed.chunk);
        },
        (error: unknown) => {
          chunk.failed(error);
          this.failure ??= { error };
        },
      )
      .finally(() => {
        this.running.delete(settling);
        this.#quieting.delete(claimed.chunk);
        const stopped = this.#options.pacer?.stopped;
        if (stopped) this.failure ??= { error: stopped };
        this.#fill();
        this.#wakeUp.wake();
      });
    this.running.add(settling);
  }

  /** After its step returned: a held commit's outcomes are durable and reported; a refused one's lease had passed on. */
  #report(commit: ChunkCommit, held: boolean): void {
    this.inHand.delete(commit.claimed.chunk);
    if (!held) {
      // Another worker holds the chunk now (this one stalled past its lease): it settles the orders by query.
      this.stats.refused += 1;
      return;
    }
    // Orders sent again went into a new chunk: the next step leases it.
    if (commit.resend.length > 0) this.#wakeUp.wakeOne();
    for (const outcome of commit.outcomes) this.#options.onOutcome?.(outcome);
  }
}

/** How a chunk ended, for its span: settled (with its orders decided and to send again), lost or unsent. */
function chunkEnd(end: ChunkEnd): [string, (() => Record<string, number>)?] {
  if ('commit' in end) return ['settled', () => ({ 'gw.batch.decided': end.commit.outcomes.length, 'gw.batch.resend': end.commit.resend.length })];
  return 'unsent' in end ? ['unsent'] : ['lost'];
}
