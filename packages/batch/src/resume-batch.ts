import { stat, truncate } from 'node:fs/promises';
import type { BatchOperation, BatchOrders } from './batch-operation.ts';
import { BatchJournal, withJournaledOrder, type OpenJournalFile } from './batch-journal.ts';
import { readJournalEntries, type JournalExtent } from './journal-reader.ts';
import { BatchRun, type BatchResult, type BatchSettings, type PendingOrder } from './batch-run.ts';
import { checkBatchSettings } from './check-batch-settings.ts';
import { JournalMismatchError } from './journal-mismatch-error.ts';
import { HEARTBEAT_MS, lockJournal, type JournalLock } from './journal/journal-lock.ts';
import { requestsEndWithinMs } from './batch-defaults.ts';
import type { OrderOutcome } from './outcome.ts';
import { numbered } from './run-batch.ts';
import { resumeLedgerBatch, runLedgerWorkerBatch, type LedgerBatchResult, type LedgerSettings } from './postgres/ledger-batch.ts';

/** Options of `resumeBatch`: the journal of the interrupted batch and the same input again. */
export interface ResumeBatchOptions<Op extends BatchOperation> extends Omit<BatchSettings, 'operation'>, Partial<LedgerSettings> {
  /** The interrupted batch's journal file (or, with `ledger`, leave it out and name the `batch`). */
  readonly journal?: string;
  /** The same input again (with `ledger`, needed only when the batch had not taken all its input in). */
  readonly orders?: Iterable<BatchOrders[Op]> | AsyncIterable<BatchOrders[Op]>;
  /** When given, must be the journal's operation. */
  readonly operation?: Op;
  /** How the journal file is opened for appending (for tests and storage layers); default `openSyncedJournalFile` (O_DSYNC). */
  readonly journalFile?: OpenJournalFile;
}

interface JournalState {
  operation: BatchOperation;
  decided: Map<number, OrderOutcome>;
  journaled: Map<number, Record<string, unknown>>;
  inDoubt: Map<number, PendingOrder[]>;
  /** Chunks whose `sent` line proves their call was made (their in-doubt orders count it against maxResends). */
  sent: Set<number>;
  resend: PendingOrder[];
  lastChunk: number;
  /** Bytes up to the last complete line: a torn tail after them is cut before anything is appended. */
  completeBytes: number;
}

async function readJournal(path: string): Promise<JournalState> {
  let operation: BatchOperation | null = null;
  const decided = new Map<number, OrderOutcome>();
  const journaled = new Map<number, Record<string, unknown>>();
  const lastIntent = new Map<number, number>();
  // How many times each order had been sent again when its last intent was written (resends count against maxResends).
  const resendsAtIntent = new Map<number, number>();
  const interruptedAtIntent = new Map<number, number>();
  const sent = new Set<number>();
  const settled = new Set<number>();
  const resendAt = new Map<number, number>();
  const unsentAt = new Map<number, number>();
  const notCountedAt = new Map<number, number>();
  let lastChunk = 0;
  const extent: JournalExtent = { completeBytes: 0 };
  for await (const entry of readJournalEntries(path, extent)) {
    switch (entry.type) {
      case 'start':
        operation = entry.operation;
        break;
      case 'intent':
        lastChunk = Math.max(lastChunk, entry.chunk);
        for (const { index, order, resends, interrupted } of entry.orders) {
          lastIntent.set(index, entry.chunk);
          if (resends) resendsAtIntent.set(index, resends);
          if (interrupted) interruptedAtIntent.set(index, interrupted);
          journaled.set(index, order);
        }
        break;
      case 'outcomes':
        if (entry.chunk !== null) settled.add(entry.chunk);
        for (const journaledOutcome of entry.outcomes) {
          // `journaled` already holds the order of every index an intent sent.
          const outcome = withJournaledOrder(journaledOutcome, journaled);
          decided.set(outcome.index, outcome);
          journaled.set(outcome.index, outcome.order as Record<string, unknown>);
        }
        for (const index of entry.resend ?? []) resendAt.set(index, entry.chunk ?? 0);
        for (const index of entry.notCounted ?? []) notCountedAt.set(index, entry.chunk ?? 0);
        for (const index of entry.unsent ?? []) unsentAt.set(index, entry.chunk ?? 0);
        break;
      case 'sent':
        sent.add(entry.chunk);
        break;
      case 'end':
        break;
    }
  }
  if (!operation) {
    // A start line is on disk before anything is sent: a journal whose only line is torn belongs to a batch that sent nothing.
    const torn = extent.completeBytes === 0 && (await stat(path)).size > 0;
    throw new JournalMismatchError(path, null, torn ? 'its only line is torn: the batch stopped before it sent anything, so delete this journal and run the batch again without resuming it' : 'no start entry: this is not a batch journal');
  }
  const inDoubt = new Map<number, PendingOrder[]>();
  const resend: PendingOrder[] = [];
  for (const [index, chunk] of lastIntent) {
    if (decided.has(index)) continue;
    const order = journaled.get(index)!;
    const resends = resendsAtIntent.get(index) ?? 0;
    const interrupted = interruptedAtIntent.get(index);
    const counts = interrupted ? { resends, interrupted } : { resends };
    if (!settled.has(chunk)) {
      // The request may or may not have gone out before the crash: a query decides, not a resend.
      inDoubt.set(chunk, [...(inDoubt.get(chunk) ?? []), { index, order, ...counts }]);
    } else if ((resendAt.get(index) ?? -1) >= chunk) {
      // A query already showed it not applied, and the crash came before it was sent again: the send the query
      // settled counts, unless nothing proved it had left.
      const counted = notCountedAt.get(index) !== resendAt.get(index);
      resend.push(counted ? { index, order, ...counts, resends: resends + 1 } : { index, order, resends, interrupted: (interrupted ?? 0) + 1 });
    } else if ((unsentAt.get(index) ?? -1) >= chunk) {
      // Its intent was written ahead and the batch stopped before sending it: it goes out as it would have.
      resend.push({ index, order, ...counts });
    }
  }
  return { operation, decided, journaled, inDoubt, sent, resend, lastChunk, completeBytes: extent.completeBytes };
}

/** Finishes an interrupted batch from its journal: settles in-doubt requests by query, then sends what is left. */
export async function resumeBatch<Op extends BatchOperation>(options: ResumeBatchOptions<Op>): Promise<BatchResult> {
  checkBatchSettings(options as unknown as Record<string, unknown>, { resuming: true });
  if (options.ledger !== undefined) {
    const orders = options.orders;
    return resumeLedgerBatch({ ...options, ledger: options.ledger, batch: options.batch! }, orders ? () => numbered(orders) : null);
  }
  // Held from before the journal is read until the resume ends, so no run or resume of the same journal overlaps it.
  const lock = await lockJournal(options.journal!, 'resume', requestsEndWithinMs(options));
  try {
    return await resumeJournalBatch(options as ResumeBatchOptions<Op> & { journal: string; orders: NonNullable<ResumeBatchOptions<Op>['orders']> }, lock);
  } finally {
    await lock.release();
  }
}

/** Options of `runBatchWorker`: the ledger and batch to join, the client, and how to work. */
export interface BatchWorkerOptions extends Omit<BatchSettings, 'operation' | 'total'>, LedgerSettings {
  readonly batch: string;
}

/**
 * Adds a worker to a batch kept in a PostgreSQL ledger, from this or any machine: it leases chunks until the batch's
 * intake is over and every chunk is done, then reports the batch's result from the ledger.
 */
export function runBatchWorker(options: BatchWorkerOptions): Promise<LedgerBatchResult> {
  checkBatchSettings({ ...options, orders: [] } as unknown as Record<string, unknown>, { resuming: true });
  return runLedgerWorkerBatch(options);
}

/**
 * Waits until no request of the dead holder this resume took the journal over from can still be in flight: it sent
 * nothing after its last heartbeat (plus one beat), and each request ended its timeout plus send margin later (the
 * holder's own, from its lock, or this resume's when the lock does not say; the longer of the two).
 * Nothing to wait for when the journal's last holder ended cleanly (its lock was released).
 */
async function quietAfterDeadHolder(lock: JournalLock, settings: { timeoutMs?: number; sendMarginMs?: number }): Promise<void> {
  if (lock.tookOverFrom === null) return;
  const endWithin = Math.max(lock.tookOverFrom.requestsEndWithinMs ?? 0, requestsEndWithinMs(settings));
  const wait = lock.tookOverFrom.lastSeenAt + HEARTBEAT_MS + endWithin - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** `lock.tookOverFrom` names a dead holder this resume took the journal over from (its last requests may still land). */
async function resumeJournalBatch<Op extends BatchOperation>(options: ResumeBatchOptions<Op> & { journal: string; orders: NonNullable<ResumeBatchOptions<Op>['orders']> }, lock: JournalLock): Promise<BatchResult> {
  const state = await readJournal(options.journal);
  if (options.operation && options.operation !== state.operation) {
    throw new JournalMismatchError(options.journal, null, `the journal is of a ${state.operation} batch, not ${options.operation}`);
  }
  // A torn last line (a crash or a full disk mid-write) was never synced, so it never counted: what it described is
  // settled like the rest (a torn intent was never sent; a torn outcomes line leaves its chunk to a query). It is cut
  // so that the lines appended now start on a line of their own.
  if ((await stat(options.journal)).size > state.completeBytes) await truncate(options.journal, state.completeBytes);
  const journal = await BatchJournal.open(options.journal, options.journalFile);
  try {
    const run = new BatchRun({ ...options, operation: state.operation }, journal, state.lastChunk + 1);
    run.setTotal(options.total ?? (Array.isArray(options.orders) ? options.orders.length : null));
    for (const outcome of state.decided.values()) run.ledger.restore(outcome);
    // The journal was taken over from a process that died: a request it sent just before may still be in flight.
    if (state.inDoubt.size > 0) await quietAfterDeadHolder(lock, options);
    for (const [chunk, pending] of [...state.inDoubt].sort((a, b) => a[0] - b[0])) {
      // Only a `sent` line proves the call was made; without one, a send found not applied is not counted.
      const settled = await run.reconcile(pending, state.sent.has(chunk));
      await run.commit(chunk, settled.outcomes, settled.resend, state.sent.has(chunk));
    }
    run.requeue(state.resend);
    async function* remaining(): AsyncGenerator<PendingOrder> {
      for await (const pending of numbered(options.orders)) {
        const journaled = state.journaled.get(pending.index);
        if (journaled === undefined) {
          yield pending;
          continue;
        }
        if (JSON.stringify(journaled) !== JSON.stringify(pending.order)) {
          throw new JournalMismatchError(options.journal, pending.index, `input order #${pending.index} differs from the one journaled`);
        }
        run.remember(pending);
      }
    }
    await run.drain(remaining());
    return await run.finish();
  } finally {
    await journal.close();
  }
}
