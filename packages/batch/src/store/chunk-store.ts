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
 * The one seam between the batch runner and where a batch is kept: the file journal (one holder, the run; a fence of
 * the run's generation) or PostgreSQL (any number of workers, leases with fencing tokens). The runner takes input in
 * through `add`, then steps: each `step` commits the chunks settled since the last and leases more.
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
  add(chunks: readonly (readonly PendingOrder[])[], refused: readonly OrderOutcome[], next: number, read: InputRange | null, signal?: AbortSignal): Promise<number>;
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
  /** Calls `wake` when another process adds chunks; returns how to stop. */
  watch(wake: () => void): Promise<() => Promise<void>>;
  status(): Promise<StoreStatus>;
  /** Every final outcome, in input order. */
  outcomes(): AsyncIterable<OrderOutcome>;
  /** Ends the batch's record: `finished` when every order has its outcome (else it stays resumable). */
  close(finished: boolean): Promise<void>;
}
