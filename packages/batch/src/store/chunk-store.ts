import type { BatchOperation } from '../operation/batch-operations.ts';
import type { HeldLease } from '../lease/held-lease.ts';
import type { OrderOutcome, OutcomeCounts } from '../outcome.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { InputRange, RecordedInput } from '../intake/input-digest.ts';

/** A chunk a worker holds: its orders, its lease's fencing token, and whether an earlier holder may have sent it. */
export interface ClaimedChunk {
  readonly chunk: number;
  readonly fence: number;
  readonly orders: PendingOrder[];
  /** An earlier holder (a worker whose lease expired, a run that died) may have sent it: its orders are queried first. */
  readonly takenOver: boolean;
  /** The earlier holder's call was over (its send counts against maxResends). */
  readonly sent: boolean;
  /** This lease as the worker knows it (on its monotonic clock): a send is made only while it has the margin left. */
  readonly lease: HeldLease;
  /** Taken over: how long to wait before an earlier holder's request can no longer be in flight (then query). */
  readonly quietWaitMs: number;
  /** When it may be sent (`performance.now()`): its slot of the batch's rate, or a pause's end; absent, at once. */
  readonly sendAt?: number;
  /** The last moment its slot of the batch's rate holds (`performance.now()`): written later, it is handed back unsent. */
  readonly sendBy?: number;
}

/** A finished chunk to commit in a step: its outcomes and the orders to send again, under its lease's token. */
export interface ChunkCommit {
  readonly claimed: ClaimedChunk;
  readonly outcomes: readonly OrderOutcome[];
  readonly resend: readonly PendingOrder[];
}

/** What a step did: which commits held (the others' leases had passed on), the chunks leased, and whether the batch is over. */
export interface StoreStep {
  readonly held: ReadonlySet<number>;
  readonly leased: readonly ClaimedChunk[];
  /** Intake is over and every chunk is done (nothing leased, nothing left open). */
  readonly finished: boolean;
  /**
   * When the step's commits are durable, if later than its return (a journal leases at once and writes behind); absent,
   * they are durable when the step returns. Their outcomes are reported only then.
   */
  readonly durable?: Promise<void>;
}

/** Where a batch stands in its store. */
export interface StoreStatus {
  readonly operation: BatchOperation;
  readonly limit: number;
  /** Every input order has been taken in. */
  readonly sealed: boolean;
  readonly total: number | null;
  readonly counts: OutcomeCounts;
  /** Requests the gateway throttled, for the whole batch (null: this process counts its own, its only holder). */
  readonly throttled: number | null;
  /** The batch's pace in requests per second (its limit, or the pace learnt from throttles), null when none or kept in this process. */
  readonly pace: number | null;
}

/**
 * Where an intake starts: input orders before `from` are in the store already, and so are those `taken` names at or
 * after it (with the order as stored, to check the input is the same, or null when the store does not say); `resend`:
 * orders a query showed not applied before the batch stopped, which go out again ahead of the input.
 */
export interface IntakeStart {
  readonly from: number;
  readonly taken: ReadonlyMap<number, Readonly<Record<string, unknown>> | null>;
  readonly resend: readonly PendingOrder[];
}

/**
 * The one seam between the batch runner and where a batch is kept: the file journal (`JournalChunkStore`: one holder,
 * the run) or PostgreSQL (`PgChunkStore`: any number of workers). The runner takes input in through `add`, then steps:
 * each `step` commits the chunks settled since the last and leases more.
 *
 * Why every input order is applied at most once and gets exactly one outcome, step by step, and where each step is:
 *
 * 1. **The input is the batch's own.** Each `add` records the range of input it read and its digest (`InputDigest`,
 *    intake/input-digest.ts); a resume reads its input against that record before anything is added or sent
 *    (runner/run-on-store.ts `checkedInput`, `checkedOrStopped`), so it never takes another file's orders for these.
 * 2. **One order, one identity.** Duplicates inside a batch and claims across a ledger's batches use one key,
 *    `orderIdentity` (order-key.ts): the transaction (or order_no), and for a refund its amount by decimal value
 *    (`canonicalAmount`, intake/canonical-amount.ts) and reason. A duplicate is refused at intake; a money-moving order
 *    another batch claimed is refused there too (the ledger's intake statement, postgres/statements.ts `INTAKE`).
 * 3. **Durable before sent.** A chunk is leasable only once `add` has made it durable (a synced intent line; a
 *    committed row), so a crash leaves every sent chunk on record.
 * 4. **Sent only under the held lease.** `sendChunk` (send/send-chunk.ts) is the only way a chunk leaves: it takes the
 *    `ClaimedChunk` a `step` handed out and sends under a `SendGuard` (lease/send-guard.ts) that checks the lease at
 *    the moment the request is written (undici's request start) with the batch's time limit. A ledger lease must have
 *    `sendMarginMs` left on the worker's monotonic clock (`LocalLease`); a journal's lasts while the run's lock file
 *    is still its own (`JournalLease`, the fence of journal/journal-lock.ts). A client or wrapper that drops the guard
 *    does not type-check (its answers are not `Guarded`), and stops the batch at run time (`SendGuardSkippedError`).
 * 5. **Never sent blindly twice.** An answer settles its orders; a failure that proves the request never left
 *    (`provenNotSent`) fails them; anything else leaves them in doubt, recorded (`markSent`) and queried
 *    (reconcile/reconcile-by-query.ts), after the send margin when the call timed out. Only orders a query shows not
 *    applied go out again, at most `maxResends` counted times.
 * 6. **Takeovers wait out the earlier holder.** A chunk whose holder stopped is handed to the next one `takenOver`:
 *    it waits `quietWaitMs` (the ledger's `quiet_at`: the last lease's end plus its holder's `timeoutMs +
 *    sendMarginMs`; a journal's: from when the takeover proved the holder dead, journal/journal-batch.ts
 *    `quietWaitAfter`), then queries, never sends.
 * 7. **Fenced commits.** A commit holds only under the lease's token (`fence`): a stalled worker whose lease passed on
 *    has its commits refused (`StoreStep.held`), and the new holder settles the chunk.
 * 8. **Exactly one outcome.** An order is in one open chunk at a time (a resend moves it to a new chunk in the commit
 *    that closes the old one); a chunk is committed once; `OutcomeTally` (store/outcome-tally.ts) and the ledger's
 *    primary keys refuse a second outcome for an index.
 *
 * The window that remains: a pause of the process longer than about `sendMarginMs` inside the microseconds between
 * the check and the write (step 4), or a gateway that applies a request more than `sendMarginMs` after the client
 * gave up on it (`timeoutMs`); such an order ends `unknown` or is found applied by its query, and its outcome says how
 * many requests carried it.
 */
export interface ChunkStore {
  /** What names the record: the journal's path, `postgres:<batch id>`, or `memory`. */
  readonly name: string;
  /** The store failed its last write and has not answered since: nothing new is sent meanwhile. */
  readonly unreachable: boolean;
  /**
   * Counts kept by this process alone when it is the batch's only holder (progress is read from them at every step);
   * null when the batch is shared and its counts are read with `status`.
   */
  readonly localCounts: OutcomeCounts | null;
  /**
   * How many chunks a worker with `concurrency` slots holds leased beyond its free slots, so that a slot that frees
   * sends at once while a step is under way (a chunk held is one no other worker can take meanwhile).
   */
  heldReady(concurrency: number): number;
  /** What the store holds of the input the batch took in (nothing for a new batch): a resume checks its input against it. */
  recordedInput(): Promise<RecordedInput>;
  /**
   * Runs the batch's intake from where the store says it stands, holding whatever keeps a second intake out; resolves
   * with the number of input orders read (0 when another process took the intake, or it was over already).
   */
  intake(take: (start: IntakeStart) => Promise<number>, signal?: AbortSignal): Promise<number>;
  /**
   * Adds chunks of accepted orders (each durable before it can be leased) and the orders refused at intake, and moves
   * the intake mark to `next`, with `read`, the input read since the last add (its identity); resolves with how many
   * chunks it added. A single-holder store waits for room first.
   */
  add(
    chunks: readonly (readonly PendingOrder[])[],
    refused: readonly OrderOutcome[],
    next: number,
    read: InputRange | null,
    signal?: AbortSignal,
  ): Promise<number>;
  /** Every input order is in: `total` were read, the last of them `read`, the whole input's digest `digest`. */
  seal(total: number, read: InputRange | null, digest: string): Promise<void>;
  /** Commits settled chunks (each only while its lease is this holder's), then leases up to `want` more. */
  step(commits: readonly ChunkCommit[], want: number): Promise<StoreStep>;
  /** Records that a chunk's call is over and its orders are in doubt (fenced); false when the lease was lost. */
  markSent(claimed: ClaimedChunk): Promise<boolean>;
  /** Hands back chunks leased and never sent: ready again, as they were. */
  release(chunks: readonly ClaimedChunk[]): Promise<void>;
  /** Extends the leases on the chunks in hand. */
  renew(chunks: readonly ClaimedChunk[]): Promise<void>;
  /**
   * Calls `wake` when another process adds chunks, and `pause` (ms) when another worker of the batch met a throttle;
   * returns how to stop. `signal` gives up setting it up (the run ended first): it then resolves at once, watching nothing.
   */
  watch(wake: () => void, pause: (ms: number) => void, signal?: AbortSignal): Promise<() => Promise<void>>;
  /**
   * A request of this worker was throttled, asking to wait `retryAfterMs`; the gateway let `letThrough` of this
   * worker's requests through in the last second: the whole batch pauses and slows (a shared store).
   */
  throttled(retryAfterMs: number, letThrough: number): Promise<void>;
  /**
   * Another worker's throttle paused the batch: the gateway let `letThrough` of this worker's requests through in the
   * last second, toward the batch's new pace (a shared store).
   */
  reportLetThrough(letThrough: number): Promise<void>;
  status(): Promise<StoreStatus>;
  /** Every final outcome, in input order. */
  outcomes(): AsyncIterable<OrderOutcome>;
  /** Ends the batch's record: `finished` when every order has its outcome (else it stays resumable). */
  close(finished: boolean): Promise<void>;
}
