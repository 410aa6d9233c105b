import type { BatchOrders } from './operation/batch-records.ts';
import type { BatchOperation } from './operation/batch-operations.ts';
import type { OpenJournalFile } from './journal/batch-journal.ts';
import type { BatchResult, BatchSettings } from './settings/batch-settings.ts';
import { requestsEndWithinMs, resolveBatchSettings } from './settings/resolve-batch-settings.ts';
import { lockJournal } from './journal/journal-lock.ts';
import { resumeJournalBatch } from './journal/journal-batch.ts';
import { numberOrders } from './run-batch.ts';
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

/** Finishes an interrupted batch from its journal or ledger: checks its input is the batch's own, settles in-doubt requests by query, then sends what is left. */
export function resumeBatch<Op extends BatchOperation>(
  options: ResumeBatchOptions<Op> & { readonly ledger: LedgerSettings['ledger'] },
): Promise<LedgerBatchResult>;
export function resumeBatch<Op extends BatchOperation>(options: ResumeBatchOptions<Op>): Promise<BatchResult>;
export async function resumeBatch<Op extends BatchOperation>(options: ResumeBatchOptions<Op>): Promise<BatchResult> {
  const settings = resolveBatchSettings(options, 'resume');
  const input = settings.orders ? () => numberOrders(settings.orders!) : null;
  if (settings.store.kind === 'ledger') return resumeLedgerBatch({ ...settings, store: settings.store }, input);
  const journal = (settings.store as { readonly journal: string }).journal;
  // Held from before the journal is read until the resume ends, so no run or resume of the same journal overlaps it.
  const lock = await lockJournal(journal, 'resume', requestsEndWithinMs(settings));
  try {
    return await resumeJournalBatch(settings, journal, lock, input);
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
export async function runBatchWorker(options: BatchWorkerOptions): Promise<LedgerBatchResult> {
  const settings = resolveBatchSettings(options, 'worker');
  return runLedgerWorkerBatch({ ...settings, store: settings.store as Extract<typeof settings.store, { kind: 'ledger' }> });
}
