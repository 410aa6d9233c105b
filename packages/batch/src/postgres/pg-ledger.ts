import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { emptyCounts, type OrderOutcome, type OutcomeCounts } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import { IntakeMovedOnError, LedgerBatchError } from '../errors.ts';
import { commitColumns, entryOf, ordersOf, outcomesOf, type LeasedRow } from './chunk-rows.ts';
import { LocalLease } from '../lease/local-lease.ts';
import type { ChunkCommit, ClaimedChunk, StoreStep } from '../store/chunk-store.ts';
import { BATCH_DEFAULTS } from '../settings/settings-table.ts';
import { orderedOutcomes } from './ordered-outcomes.ts';
import { ensureMigrated } from './schema.ts';
import { checkConnection, connectionProblem } from './connection-checks.ts';
import { LedgerListener, type ListenSource } from './ledger-listener.ts';
import { takeIntakeLease, type HeldIntakeLease } from './intake-lease.ts';
import { isConnectionLost, LedgerOutage } from './ledger-outage.ts';
import {
  CHUNKS_CHANNEL,
  CLOCK_NOW,
  INTAKE,
  INTAKE_LEASE,
  INTAKE_RELEASE,
  INTAKE_UNCLAIMED,
  MARK_SENT,
  NAME_CONFLICTS,
  ORDERS_AT,
  PAUSE_CHANNEL,
  RECORDED_INPUT,
  RELEASE,
  RENEW,
  SEAL,
  SET_LIMITS,
  SLOT_LATENESS_MS,
  STATUS,
  STEP,
  stepValues,
  intakeValues,
  intArray,
  PACE_REPORT,
} from './statements.ts';
import type { InputRange, RecordedInput } from '../intake/input-digest.ts';
import { statementTimed } from '../telemetry/ledger-telemetry.ts';
import { LedgerClock } from './ledger-clock.ts';

/** How a holder leases: for how long, and its send window (request timeout + send margin), which sets `quiet_at`. */
export interface LeaseTerms {
  readonly leaseMs: number;
  readonly sendWindowMs: number;
}

/** Where a batch stands in the ledger. */
export interface LedgerStatus {
  readonly operation: BatchOperation;
  readonly limit: number;
  /** Every input order has been taken in. */
  readonly sealed: boolean;
  readonly total: number | null;
  readonly intakeNext: number;
  /** Chunks not done yet. */
  readonly open: number;
  readonly counts: OutcomeCounts;
  /** Requests the gateway throttled, every worker's together. */
  readonly throttled: number;
  /** The pace in force (requests per second: `max_rate`, or the pace learnt from throttles, the lower), or null. */
  readonly pace: number | null;
  /** The batch keeps a limit on requests in flight. */
  readonly inFlightLimited: boolean;
}

/** One input order for the intake statement: its claim key (null when it moves no money) and its chunk entry. */
export interface IntakeEntry {
  readonly pending: PendingOrder;
  readonly key: string | null;
}

/**
 * A claim key as PostgreSQL stores it: text cannot hold NUL, which separates a refund's transaction, amount and
 * reason, so such a key is stored as the JSON array of its parts (every refund key has them; other keys are as is).
 */
function storedKey(key: string): string {
  return key.includes('\u0000') ? JSON.stringify(key.split('\u0000')) : key;
}

/** Runs `attempt`, trying it again after a lost connection while `outage` allows (then its LedgerUnavailableError). */
async function ridingOut<T>(outage: LedgerOutage, batch: string | null, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const result = await attempt();
      outage.reached();
      return result;
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
      await outage.wait(error, batch);
    }
  }
}

/** How a ledger is opened: its pool's size, how long an outage is ridden out, its batch, where wake-ups are listened for. */
export interface LedgerOpenOptions {
  readonly maxConnections?: number;
  readonly outageMs?: number;
  readonly batch?: string;
  /** A direct URL of the same database for LISTEN, when the ledger's connection goes through a transaction pooler. */
  readonly listen?: string | null;
  /** Hears what the ledger says once (workers poll: its connection delivers no notification). */
  readonly onNotice?: (message: string) => void;
}

/**
 * A batch ledger in PostgreSQL, shared by every worker of every batch in the database: chunks with leases and fencing
 * tokens, one outcome row per order, and a claim per money-moving order (operation + key) across batches. Its tables
 * are created on `open` (idempotent). Every method is one round trip, counted in `roundTrips`.
 */
export class PgLedger {
  readonly pool: pg.Pool;
  readonly #owned: boolean;
  /** An intake met an order another batch had claimed: this ledger's intakes resolve conflicts from then on. */
  #claimsMet = false;
  readonly #outage: LedgerOutage;
  readonly #batch: string | null;
  readonly #listener: LedgerListener;
  /** The database's clock on this process's: where the send slots it hands out fall here. */
  readonly #clock = new LedgerClock();
  roundTrips = 0;

  private constructor(
    pool: pg.Pool,
    owned: boolean,
    outage: LedgerOutage,
    batch: string | null,
    listen: ListenSource,
    onNotice: ((message: string) => void) | undefined,
  ) {
    this.pool = pool;
    this.#owned = owned;
    this.#outage = outage;
    this.#batch = batch;
    this.#listener = new LedgerListener(listen, {
      notify: async (channel, payload) => void (await this.#query('SELECT pg_notify($1, $2)', [channel, payload], 'notify')),
      onNotice,
    });
  }

  /**
   * Connects (a `postgres://` URL, or a `pg.Pool` you own), checks the connection keeps the ledger's guarantees and
   * migrates the ledger's tables where needed (or says how, for a role that may not). A database out of reach is
   * waited for, statement by statement, up to `outageMs` (default 30 s; `batch` names the batch in the
   * LedgerUnavailableError after it); a connection refused for its settings is a LedgerConnectionError at once.
   */
  static async open(connection: string | pg.Pool, options: LedgerOpenOptions = {}): Promise<PgLedger> {
    const owned = typeof connection === 'string';
    const pool = owned ? new pg.Pool({ connectionString: connection, max: options.maxConnections ?? 10 }) : connection;
    // An idle connection that fails (the server restarts) must not crash the process: the next query reports it.
    if (owned) pool.on('error', () => {});
    const outage = new LedgerOutage(options.outageMs ?? BATCH_DEFAULTS.ledgerOutageMs);
    try {
      await ridingOut(outage, options.batch ?? null, async () => {
        const client = await pool.connect();
        try {
          await checkConnection(client);
          await ensureMigrated(client);
        } finally {
          client.release();
        }
      });
    } catch (error) {
      if (owned) await pool.end().catch(() => {});
      throw connectionProblem(error) ?? error;
    }
    const listen: ListenSource = options.listen
      ? { url: options.listen, given: true }
      : typeof connection === 'string'
        ? { url: connection, given: false }
        : { pool };
    const ledger = new PgLedger(pool, owned, outage, options.batch ?? null, listen, options.onNotice);
    // A listen URL the user gave must deliver: refused here, before a batch starts, when it does not.
    if (options.listen)
      await ledger.#listener.prove().catch(async (error: unknown) => {
        await ledger.close().catch(() => {});
        throw connectionProblem(error) ?? error;
      });
    return ledger;
  }

  /** The ledger failed its last statement and has not answered since (a worker starts nothing new meanwhile). */
  get unreachable(): boolean {
    return this.#outage.down;
  }

  // Statements are unnamed: a named one lives on one server connection, and a transaction pooler hands each statement
  // to any of them. A lost connection is tried again while the outage lasts (every statement is safe to run twice).
  // `name` names a statement written inline (the ledger's constants are named by their text) in its duration metric.
  async #query<R extends pg.QueryResultRow>(text: string, values: unknown[], name?: string): Promise<pg.QueryResult<R>> {
    return ridingOut(this.#outage, this.#batch, async () => {
      this.roundTrips += 1;
      const started = performance.now();
      try {
        return await this.pool.query<R>(text, values);
      } finally {
        statementTimed(text, performance.now() - started, name);
      }
    });
  }

  /** Whether wake-ups arrive (LISTEN/NOTIFY), once the first listen proved it; null before. */
  get wakeUps(): boolean | null {
    return this.#listener.delivers;
  }

  /** Starts a batch (with the number of orders it is started with, when known); refused when one of that id exists. */
  async createBatch(id: string, operation: BatchOperation, limit: number, declared: number | null = null): Promise<void> {
    // The creator's token: a create tried again after a lost connection finds its own row, not "exists already".
    const creator = randomUUID();
    const result = await this.#query<{ creator: string }>(
      'WITH made AS (INSERT INTO gw_batch (id, operation, chunk_limit, creator, declared_total) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING creator) SELECT creator FROM made UNION ALL SELECT creator FROM gw_batch WHERE id = $1',
      [id, operation, limit, creator, declared],
      'create_batch',
    );
    if (result.rows[0]?.creator !== creator)
      throw new LedgerBatchError(
        id,
        'exists already: resume it (resumeBatch / gw batch --resume) or add workers to it (gw batch worker), or choose another batch id',
      );
  }

  /** Where the batch stands; refused when there is no such batch. */
  async status(id: string): Promise<LedgerStatus> {
    const { rows } = await this.#query<{
      operation: BatchOperation;
      chunk_limit: number;
      sealed: boolean;
      total: string | null;
      intake_next: string;
      open: number;
      counts: Partial<OutcomeCounts>;
      throttled: string;
      pace: number | null;
      in_flight_limited: boolean;
    }>(STATUS, [id]);
    const row = rows[0];
    if (!row) throw new LedgerBatchError(id, 'does not exist in this database (check --ledger and --batch)');
    return {
      operation: row.operation,
      limit: row.chunk_limit,
      sealed: row.sealed,
      total: row.total === null ? null : Number(row.total),
      intakeNext: Number(row.intake_next),
      open: row.open,
      counts: { ...emptyCounts(), ...row.counts },
      throttled: Number(row.throttled),
      pace: row.pace,
      inFlightLimited: row.in_flight_limited,
    };
  }

  /**
   * Takes one chunk of accepted orders in (claiming each money-moving order across batches: one already claimed is
   * rejected "already in batch X" instead), with the orders intake refused, and moves the intake mark to `intakeNext`.
   * Several chunks go in one statement; returns how many chunks it added.
   */
  async intake(
    id: string,
    operation: BatchOperation,
    chunks: readonly (readonly IntakeEntry[])[],
    refused: readonly OrderOutcome[],
    intakeNext: number,
    after: number,
    read: InputRange | null,
  ): Promise<number> {
    const values = intakeValues({
      batch: id,
      operation,
      chunks: chunks.map((chunk) => ({
        entries: chunk.map((a) => entryOf(a.pending)),
        claims: chunk.flatMap(({ pending, key }) => (key === null ? [] : [{ key: storedKey(key), index: pending.index }])),
      })),
      refused,
      next: intakeNext,
      after,
      read,
    });
    const { rows } = await this.#intakeStatement(values);
    if (!rows[0]?.moved) {
      const at = rows[0]?.at;
      if (at === null || at === undefined) throw new LedgerBatchError(id, 'does not exist in this database (check --ledger and --batch)');
      // This statement's earlier try was written before its connection was lost: nothing to do again.
      if (Number(at) === intakeNext) return 0;
      throw new IntakeMovedOnError(id, Number(at), after);
    }
    const unnamed = rows[0]?.unnamed ?? [];
    if (unnamed.length > 0) await this.#query(NAME_CONFLICTS, [id, unnamed.map((u) => u.idx), unnamed.map((u) => u.k), operation]);
    return rows[0]?.chunks ?? 0;
  }

  // Plain claim inserts first; once another batch held one of the orders, conflicts are resolved in the statement.
  async #intakeStatement(
    values: unknown[],
  ): Promise<pg.QueryResult<{ moved: number; at: string | null; chunks: number; unnamed: { idx: number; k: string }[] }>> {
    if (!this.#claimsMet) {
      try {
        return await this.#query(INTAKE_UNCLAIMED, values);
      } catch (error) {
        const { code, constraint } = error as { code?: string; constraint?: string };
        if (code !== '23505' || constraint !== 'gw_order_claim_pkey') throw error;
        this.#claimsMet = true;
      }
    }
    return this.#query(INTAKE, values);
  }

  /**
   * The batch's intake lease for `holder` (renewed until released), or null while another live process holds it: one
   * process takes a batch's input in at a time, and a dead one's lease expires (at most INTAKE_LEASE_MAX_MS).
   */
  tryIntakeLease(id: string, holder: string, leaseMs: number): Promise<HeldIntakeLease | null> {
    return takeIntakeLease(
      {
        take: async (ms) => ((await this.#query(INTAKE_LEASE, [id, holder, ms])).rowCount ?? 0) > 0,
        release: async () => void (await this.#query(INTAKE_RELEASE, [id, holder])),
      },
      leaseMs,
    );
  }

  /**
   * Calls `wake` whenever any process adds chunks to batch `id` (intake, or orders to send again), seals it or commits
   * its last open chunk, and `pause` with each throttle's wait, on a connection of its own that LISTENs (to the listen
   * URL when given); returns how to stop. A lost connection only stops the wake-ups: workers still poll, and learn of
   * a pause at their next step. Nothing is listened for when the connection delivers no notification (a transaction
   * pooler): the ledger says so once. `signal` gives up (the run ended while its wake-ups were still being proven).
   */
  async listen(id: string, wake: () => void, pause?: (ms: number) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
    const paused = `${id} `;
    const heard = (message: pg.Notification): void => {
      if (message.channel === PAUSE_CHANNEL) {
        if (pause && message.payload?.startsWith(paused)) pause(Number(message.payload.slice(paused.length)));
      } else if (message.payload === id) wake();
    };
    return ridingOut(this.#outage, this.#batch, () => this.#listener.listen(pause ? [CHUNKS_CHANNEL, PAUSE_CHANNEL] : [CHUNKS_CHANNEL], heard, signal));
  }

  /**
   * Worker `holder` of batch `id` was throttled, asked to wait `retryAfterMs`, the gateway having let `letThrough` of
   * its requests through in the last second: the batch pauses (every worker notified) and its pace is set anew.
   */
  async throttle(id: string, holder: string, retryAfterMs: number, letThrough: number): Promise<void> {
    await this.#query(PACE_REPORT, [id, holder, letThrough, Math.round(retryAfterMs)]);
  }

  /** Worker `holder`, paused by another's throttle, reports the requests the gateway let through in the last second. */
  async reportLetThrough(id: string, holder: string, letThrough: number): Promise<void> {
    await this.#query(PACE_REPORT, [id, holder, letThrough, null]);
  }

  /** Sets batch `id`'s limits for every worker: requests per second and requests in flight (null: none). */
  async setLimits(id: string, maxRate: number | null, maxInFlight: number | null): Promise<void> {
    await this.#query(SET_LIMITS, [id, maxRate, maxInFlight]);
  }

  /** Marks every input order taken in: `total` of them, the last read `read`, the whole input's digest `digest`. */
  async seal(id: string, total: number, read: InputRange | null, digest: string): Promise<void> {
    await this.#query(SEAL, [id, total, read?.from ?? null, read?.upto ?? null, read?.digest ?? null, digest]);
  }

  /** What the ledger holds of batch `id`'s input: the ranges read and their digests, its totals; and its orders by index. */
  async recordedInput(id: string): Promise<RecordedInput> {
    const { rows } = await this.#query<{
      sealed: boolean;
      total: string | null;
      declared_total: string | null;
      ranges: [string | number, string | number, string][];
    }>(RECORDED_INPUT, [id]);
    const row = rows[0];
    if (!row) throw new LedgerBatchError(id, 'does not exist in this database (check --ledger and --batch)');
    return {
      ranges: row.ranges.map(([from, upto, digest]) => ({ from: Number(from), upto: Number(upto), digest })),
      total: row.sealed && row.total !== null ? Number(row.total) : null,
      declared: row.declared_total === null ? null : Number(row.declared_total),
      ordersAt: async (from, upto) =>
        new Map((await this.#query<{ idx: string; ord: Record<string, unknown> }>(ORDERS_AT, [id, from, upto])).rows.map((r) => [Number(r.idx), r.ord])),
    };
  }

  /** The indexes at or after `from` already in a chunk or decided (what a resumed intake must not take in again). */
  async takenFrom(id: string, from: number): Promise<Set<number>> {
    const { rows } = await this.#query<{ idx: string }>(
      "SELECT (e->>'index')::bigint AS idx FROM gw_batch_chunk, jsonb_array_elements(body::jsonb) e WHERE batch_id = $1 AND (e->>'index')::bigint >= $2 UNION SELECT idx FROM gw_batch_outcome WHERE batch_id = $1 AND idx >= $2",
      [id, from],
      'taken_from',
    );
    return new Set(rows.map((r) => Number(r.idx)));
  }

  // A leased row as a chunk: its orders from the row's text.
  #claimed(row: LeasedRow, lease: LocalLease): ClaimedChunk {
    const chunk = Number(row.chunk);
    const orders = ordersOf(row);
    // Its slot (or a pause's end) on this process's clock; a slot the database set before now is due at once.
    const slot = row.send_at_ms === null ? null : this.#clock.local(Number(row.send_at_ms));
    const sendAt = slot ?? performance.now();
    const claimed = {
      chunk,
      fence: Number(row.fence),
      orders,
      takenOver: row.taken_over,
      sent: row.sent,
      lease,
      quietWaitMs: Number(row.quiet_wait_ms ?? 0),
      sendAt,
    };
    // A rate's slot holds only a little past its time: a worker that stalled (a pause of its process, a loaded host)
    // would otherwise send the slots it missed together, more in a second than the rate.
    return row.rate_slot ? { ...claimed, sendBy: sendAt + SLOT_LATENESS_MS } : claimed;
  }

  /** Records that the chunk's call is over (fenced); false when the lease was lost. */
  async markSent(id: string, claimed: ClaimedChunk): Promise<boolean> {
    return ((await this.#query(MARK_SENT, [id, claimed.chunk, claimed.fence])).rowCount ?? 0) > 0;
  }

  /**
   * One round trip for a worker: commits `commits` (each only while its token is the chunk's, as `commit`), then
   * leases up to `want` more chunks (as `claim`), and tells whether the batch is over and how long a pause has left.
   */
  async step(id: string, holder: string, terms: LeaseTerms, want: number, commits: readonly ChunkCommit[]): Promise<StoreStep & { readonly pauseMs: number }> {
    // The first step's own answer may be held up on its way: the clock is first read alone, a few times.
    if (!this.#clock.known) await this.#readClock();
    const values = stepValues({
      batch: id,
      holder,
      leaseMs: terms.leaseMs,
      want,
      commits: commits.map((c) => ({ chunk: c.claimed.chunk, fence: c.claimed.fence, ...commitColumns(c.outcomes, c.resend) })),
      sendWindowMs: terms.sendWindowMs,
      // Kept on every try of this step: a try after a lost connection gets back what an earlier one leased.
      token: randomUUID(),
    });
    const sentAt = performance.now();
    const { rows } = await this.#query<{ held: string[]; finished: boolean; pause_ms: number | null; db_now_ms: number } & (LeasedRow | { chunk: null })>(
      STEP,
      values,
    );
    const row = rows[0];
    if (!row) throw new LedgerBatchError(id, 'does not exist in this database (check --ledger and --batch)');
    this.#clock.observe(Number(row.db_now_ms));
    const leased = rows.flatMap((c) => (c.chunk === null ? [] : [this.#claimed(c as LeasedRow, new LocalLease(sentAt, terms.leaseMs))]));
    return { held: new Set(row.held.map(Number)), leased, finished: row.finished, pauseMs: row.pause_ms ?? 0 };
  }

  // Notes the database's time three times, each from a query of its own: the quickest answer sets the offset. Once per
  // worker, not part of the batch's work: `roundTrips` does not count them.
  async #readClock(): Promise<void> {
    const counted = this.roundTrips;
    for (let i = 0; i < 3; i++) {
      const { rows } = await this.#query<{ now_ms: number }>(CLOCK_NOW, [], 'clock_now');
      this.#clock.observe(Number(rows[0]?.now_ms));
    }
    this.roundTrips = counted;
  }

  /** Hands back chunks this holder leased and never sent: ready again for any worker, only under each lease's token. */
  async release(id: string, chunks: readonly ClaimedChunk[]): Promise<void> {
    if (chunks.length > 0) await this.#query(RELEASE, [id, chunks.map((c) => c.chunk), chunks.map((c) => c.fence), chunks.map((c) => c.takenOver)]);
  }

  /**
   * Extends the leases `holder` still has on `chunks` (the ones it is working on: a lease it lost track of expires),
   * and each renewed chunk's local lease; returns how many were renewed (a chunk whose token moved on is not).
   */
  async renew(id: string, holder: string, terms: LeaseTerms, chunks: readonly ClaimedChunk[]): Promise<number> {
    if (chunks.length === 0) return 0;
    const sentAt = performance.now();
    const { rows } = await this.#query<{ chunk: string }>(RENEW, [
      id,
      holder,
      terms.leaseMs,
      intArray(chunks.map((c) => c.chunk)),
      intArray(chunks.map((c) => c.fence)),
      terms.sendWindowMs,
    ]);
    const renewed = new Set(rows.map((r) => Number(r.chunk)));
    for (const claimed of chunks) if (renewed.has(claimed.chunk) && claimed.lease instanceof LocalLease) claimed.lease.renewed(sentAt, terms.leaseMs);
    return renewed.size;
  }

  /** Every outcome of the batch in input order, read a page at a time (the outcomes of chunks whose pages overlap are held meanwhile). */
  outcomes(id: string, pageSize = 5000): AsyncGenerator<OrderOutcome> {
    const chunkPage = Math.max(1, Math.ceil(pageSize / 50));
    return orderedOutcomes(
      {
        orders: async (after, size) =>
          (
            await this.#query<{ outcome: OrderOutcome }>(
              'SELECT outcome FROM gw_batch_outcome WHERE batch_id = $1 AND idx > $2 ORDER BY idx LIMIT $3',
              [id, after, size],
              'outcomes',
            )
          ).rows.map((r) => r.outcome),
        chunks: async (first, chunk, size) =>
          (
            await this.#query<{ first_idx: string; chunk: string; outcomes: string; body: string }>(
              'SELECT r.first_idx, r.chunk, r.outcomes, c.body FROM gw_batch_result r JOIN gw_batch_chunk c ON c.batch_id = r.batch_id AND c.chunk = r.chunk WHERE r.batch_id = $1 AND (r.first_idx, r.chunk) > ($2, $3) ORDER BY r.first_idx, r.chunk LIMIT $4',
              [id, first, chunk, size],
              'outcomes',
            )
          ).rows.map((r) => ({ first: Number(r.first_idx), chunk: Number(r.chunk), outcomes: outcomesOf(r.outcomes, r.body) })),
      },
      pageSize,
      chunkPage,
    );
  }

  /** Closes the pool when this ledger opened it. */
  async close(): Promise<void> {
    if (this.#owned) await this.pool.end();
  }
}
