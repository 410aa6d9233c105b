import { stat, truncate } from 'node:fs/promises';
import { BATCH_DEFAULTS, requestsEndWithinMs } from '../batch-defaults.ts';
import { BatchJournal, type OpenJournalFile } from './batch-journal.ts';
import type { BatchResult, BatchSettings, StageHook } from '../batch-settings.ts';
import { JournalMismatchError } from '../errors.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { batchSpecOf } from '../operation/batch-operations.ts';
import { newHolderName, runOnStore } from '../runner/run-on-store.ts';
import type { PendingOrder } from '../send/pending-order.ts';
import type { JournalLock } from './journal-lock.ts';
import { JournalChunkStore, type JournalStoreOptions } from './journal-chunk-store.ts';
import { readJournal } from './journal-state.ts';

/**
 * Chunks whose intent is written ahead and not leased yet, per request in flight (the worker holds as many again
 * leased: JournalChunkStore.heldReady). A sync takes about as long as a few requests of a fast gateway; four per slot
 * in all keep the window from waiting for one. A crash leaves at most that many more chunks to query.
 */
const INTENTS_AHEAD_PER_SLOT = 2;

/** Settings of a batch one process keeps (in a journal file, or in memory). */
export type JournalBatchSettings = BatchSettings & StageHook & { readonly journalFile?: OpenJournalFile | undefined };

function storeOptions(settings: JournalBatchSettings, journal: BatchJournal | null, lock: JournalLock | null): JournalStoreOptions {
  const concurrency = settings.concurrency ?? BATCH_DEFAULTS.concurrency;
  return { journal, operation: settings.operation, limit: batchSpecOf(settings.operation).limit, lookahead: concurrency * INTENTS_AHEAD_PER_SLOT, keepOutcomes: settings.keepOutcomes ?? true, lock };
}

/** Runs the store to its end and closes it: with `end` when every order has its outcome, else resumable. */
async function runToEnd(store: JournalChunkStore, settings: JournalBatchSettings, journal: string | null, input: () => Iterator<PendingOrder> | AsyncIterator<PendingOrder>): Promise<BatchResult> {
  let finished = false;
  try {
    const result = await runOnStore(store, { ...settings, holder: newHolderName(), leaseMs: Infinity, pollMs: BATCH_DEFAULTS.pollMs, journal }, input);
    finished = true;
    const { worker: _worker, ...batch } = result;
    return batch;
  } finally {
    await store.close(finished);
  }
}

/** Runs a new batch kept in a journal file (`journal`, locked by the caller as `lock`) or, without one, in memory only. */
export async function runJournalBatch(settings: JournalBatchSettings & { readonly journal?: string | undefined }, lock: JournalLock | null, orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>): Promise<BatchResult> {
  const journal = settings.journal ? await BatchJournal.open(settings.journal, settings.journalFile) : null;
  const options = storeOptions(settings, journal, lock);
  try {
    const at = new Date().toISOString();
    // The number of orders it is started with, when known: a resume's input must have as many.
    const declared = settings.total === undefined ? [] : [{ type: 'input' as const, declared: settings.total, at }];
    await journal?.append({ type: 'start', version: 1, operation: settings.operation, limit: options.limit, at }, ...declared);
  } catch (error) {
    await journal?.close();
    throw error;
  }
  return runToEnd(JournalChunkStore.start(options), settings, settings.journal ?? null, () => orders);
}

/**
 * Finishes a batch from its journal (locked by the caller as `lock`): its chunks in doubt are queried (once no
 * request of a run that died can still be in flight), then what is left is sent.
 */
export async function resumeJournalBatch(
  settings: Omit<JournalBatchSettings, 'operation'> & { readonly journal: string; readonly operation?: BatchOperation | undefined },
  lock: JournalLock,
  orders: () => Iterator<PendingOrder> | AsyncIterator<PendingOrder>,
): Promise<BatchResult> {
  const state = await readJournal(settings.journal);
  if (settings.operation && settings.operation !== state.operation) {
    throw new JournalMismatchError(settings.journal, null, `the journal is of a ${state.operation} batch, not ${settings.operation}`);
  }
  // A torn last line (a crash or a full disk mid-write) was never synced, so it never counted: what it described is
  // settled like the rest (a torn intent was never sent; a torn outcomes line leaves its chunk to a query). It is cut
  // so that the lines appended now start on a line of their own.
  if ((await stat(settings.journal)).size > state.completeBytes) await truncate(settings.journal, state.completeBytes);
  const journal = await BatchJournal.open(settings.journal, settings.journalFile);
  const resumed = { ...settings, operation: state.operation };
  const store = JournalChunkStore.resume(storeOptions(resumed, journal, lock), state, quietWaitAfter(lock, settings));
  return runToEnd(store, resumed, settings.journal, orders);
}

/**
 * How long to wait before querying a chunk in doubt: until no request of the dead holder this resume took the journal
 * over from can still be in flight. The takeover proved it dead (`provenGoneAt`), so each request it wrote was
 * written before then, and ended its timeout plus send margin later (the holder's own, from its lock, or this
 * resume's when the lock does not say; the longer of the two). No clock of the dead holder's is trusted. Nothing to
 * wait for when the journal's last holder ended cleanly (its lock was released).
 */
function quietWaitAfter(lock: JournalLock, settings: { timeoutMs?: number | undefined; sendMarginMs?: number | undefined }): number {
  if (lock.tookOverFrom === null) return 0;
  const endWithin = Math.max(lock.tookOverFrom.requestsEndWithinMs ?? 0, requestsEndWithinMs(settings));
  return Math.max(0, lock.tookOverFrom.provenGoneAt + endWithin - Date.now());
}
