import { stat } from 'node:fs/promises';
import { withoutCardData } from '@gw/types';
import type { BatchOrders } from './operation/batch-records.ts';
import type { BatchOperation } from './operation/batch-operations.ts';
import type { OpenJournalFile } from './journal/batch-journal.ts';
import type { BatchResult, BatchSettings } from './settings/batch-settings.ts';
import type { PendingOrder } from './send/pending-order.ts';
import { runJournalBatch } from './journal/journal-batch.ts';
import { JournalInUseError } from './errors.ts';
import { lockJournal } from './journal/journal-lock.ts';
import { requestsEndWithinMs, resolveBatchSettings } from './settings/resolve-batch-settings.ts';
import { runLedgerBatch, type LedgerBatchResult, type LedgerSettings } from './postgres/ledger-batch.ts';

/** Options of `runBatch`. */
export interface RunBatchOptions<Op extends BatchOperation> extends BatchSettings, Partial<LedgerSettings> {
  readonly operation: Op;
  /** Any iterable or async iterable (a CSV or JSONL file through `ordersFromCsv` / `ordersFromJsonl` is streamed). */
  readonly orders: Iterable<BatchOrders[Op]> | AsyncIterable<BatchOrders[Op]>;
  /** Path of the journal file (append-only JSONL; each chunk's intent is on disk before it is sent and its outcomes after); without one the batch cannot be resumed. */
  readonly journal?: string;
  /** How the journal file is opened for appending (for tests and storage layers); default `openSyncedJournalFile` (O_DSYNC). */
  readonly journalFile?: OpenJournalFile;
}

/**
 * Input order number `index`, copied so later changes by the caller do not reach the batch, and without card data
 * (named in `cardFields`, the order is then refused at intake): nothing after this sees a card value.
 */
function pendingOrder(index: number, input: unknown): PendingOrder {
  const { record: order, cardData } = withoutCardData((input !== null && typeof input === 'object' ? input : {}) as Record<string, unknown>);
  return cardData.length > 0 ? { index, order, resends: 0, cardFields: cardData } : { index, order, resends: 0 };
}

/** Numbers the input orders as they are read. */
export async function* numbered(orders: Iterable<unknown> | AsyncIterable<unknown>): AsyncGenerator<PendingOrder> {
  let index = 0;
  for await (const order of orders as AsyncIterable<unknown>) yield pendingOrder(index++, order);
}

/** The same for a synchronous iterable (an array): no promise per order. */
function* numberedSync(orders: Iterable<unknown>): Generator<PendingOrder> {
  let index = 0;
  for (const order of orders) yield pendingOrder(index++, order);
}

/** Numbers any source, synchronously when it is a synchronous iterable. */
export function numberOrders(orders: Iterable<unknown> | AsyncIterable<unknown>): Iterator<PendingOrder> | AsyncIterator<PendingOrder> {
  const asyncIterable = typeof (orders as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
  return asyncIterable ? numbered(orders) : numberedSync(orders as Iterable<unknown>);
}

/** Throws a JournalInUseError when the journal file exists and is not empty (an empty file, made beforehand, is fine). */
async function refuseJournalInUse(path: string): Promise<void> {
  const bytes = await stat(path).then(
    (s) => s.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return 0;
      throw error;
    },
  );
  if (bytes > 0) throw new JournalInUseError(path, bytes);
}

/**
 * Runs capture, cancel, review, refund or query over any number of orders: every input order gets exactly one outcome.
 * With `ledger` (PostgreSQL) the batch is kept there: other workers may join it (`runBatchWorker`), and a
 * money-moving order already in another batch of that database is rejected, not sent.
 */
export function runBatch<Op extends BatchOperation>(options: RunBatchOptions<Op> & { readonly ledger: LedgerSettings['ledger'] }): Promise<LedgerBatchResult>;
export function runBatch<Op extends BatchOperation>(options: RunBatchOptions<Op>): Promise<BatchResult>;
export async function runBatch<Op extends BatchOperation>(options: RunBatchOptions<Op>): Promise<BatchResult> {
  const settings = resolveBatchSettings(options, 'run');
  const operation = settings.operation!;
  const orders = numberOrders(settings.orders!);
  if (settings.store.kind === 'ledger') return runLedgerBatch({ ...settings, store: settings.store }, operation, orders);
  const journal = settings.store.kind === 'journal' ? settings.store.journal : null;
  // Taken before the journal is looked at: of two runs started at once on a new journal, one is refused here.
  const lock = journal ? await lockJournal(journal, 'run', requestsEndWithinMs(settings)) : null;
  try {
    if (journal) await refuseJournalInUse(journal);
    return await runJournalBatch(settings, operation, lock, orders);
  } finally {
    await lock?.release();
  }
}
