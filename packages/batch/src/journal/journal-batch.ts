import { stat, truncate } from 'node:fs/promises';
import { BatchJournal } from './batch-journal.ts';
import type { BatchResult } from '../settings/batch-settings.ts';
import { requestsEndWithinMs, type ResolvedBatchSettings } from '../settings/resolve-batch-settings.ts';
import { BATCH_DEFAULTS } from '../settings/settings-table.ts';
import { newHolderName } from '../settings/names.ts';
import { JournalMismatchError } from '../errors.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { batchSpecOf } from '../operation/batch-operations.ts';
import { runOnStore } from '../runner/run-on-store.ts';
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

function storeOptions(settings: ResolvedBatchSettings, operation: BatchOperation, journal: BatchJournal | null, lock: JournalLock | null): JournalStoreOptions {
  return {
    journal,
    operation,
    limit: batchSpecOf(operation).limit,
    lookahead: settings.concurrency * INTENTS_AHEAD_PER_SLOT,
    keepOutcomes: settings.keepOutcomes,
    lock,
  };
}

/** The input as the runner reads it (numbered), or null. */
type InputOf = (() => Iterator<PendingOrder> | AsyncIterator<PendingOrder>) | null;

/** Runs the store to its end and closes it: with `end` when every order has its outcome, else resumable. */
async function runToEnd(
  store: JournalChunkStore,
  settings: ResolvedBatchSettings,
  operation: BatchOperation,
  journal: string | null,
  input: InputOf,
  role: 'run' | 'resume',
): Promise<BatchResult> {
  let finished = false;
  try {
    // The run is the journal's only holder: its leases last while it holds the journal's lock.
    const result = await runOnStore(
      store,
      settings,
      { operation, holder: newHolderName(), leaseMs: Infinity, pollMs: BATCH_DEFAULTS.pollMs, journal, batch: null, role },
      input,
    );
    finished = true;
    const { worker: _worker, ...batch } = result;
    return batch;
  } finally {
    await store.close(finished);
  }
}

/** Runs a new batch kept in a journal file (the store's, locked by the caller as `lock`) or, without one, in memory only. */
export async function runJournalBatch(
  settings: ResolvedBatchSettings,
  operation: BatchOperation,
  lock: JournalLock | null,
  orders: Iterator<PendingOrder> | AsyncIterator<PendingOrder>,
): Promise<BatchResult> {
  const path = settings.store.kind === 'journal' ? settings.store.journal : null;
  const journal = settings.store.kind === 'journal' ? await BatchJournal.open(settings.store.journal, settings.store.journalFile) : null;
  const options = storeOptions(settings, operation, journal, lock);
  try {
    const at = new Date().toISOString();
    // The number of orders it is started with, when known: a resume's input must have as many.
    const declared = settings.total === null ? [] : [{ type: 'input' as const, declared: settings.total, at }];
    await journal?.append({ type: 'start', version: 1, operation, limit: options.limit, at }, ...declared);
  } catch (error) {
    await journal?.close();
    throw error;
  }
  return runToEnd(JournalChunkStore.start(options), settings, operation, path, () => orders, 'run');
}

/**
 * Finishes a batch from its journal `path` (locked by the caller as `lock`): its input checked against the batch's
 * own, its chunks in doubt queried (once no request of a run that died can still be in flight), then what is left
 * sent. Without input only a batch that had taken all its input in.
 */
export async function resumeJournalBatch(settings: ResolvedBatchSettings, path: string, lock: JournalLock, orders: InputOf): Promise<BatchResult> {
  const state = await readJournal(path);
  if (settings.operation && settings.operation !== state.operation) {
    throw new JournalMismatchError(path, null, `the journal is of a ${state.operation} batch, not ${settings.operation}`);
  }
  if (orders === null && state.input.total === null)
    throw new JournalMismatchError(path, null, 'the batch had not taken all its input in when it stopped, so its input is needed');
  // A torn last line (a crash or a full disk mid-write) was never synced, so it never counted: what it described is
  // settled like the rest (a torn intent was never sent; a torn outcomes line leaves its chunk to a query). It is cut
  // so that the lines appended now start on a line of their own.
  if ((await stat(path)).size > state.completeBytes) await truncate(path, state.completeBytes);
  const journal = await BatchJournal.open(path, settings.store.kind === 'journal' ? settings.store.journalFile : undefined);
  const store = JournalChunkStore.resume(storeOptions(settings, state.operation, journal, lock), state, quietWaitAfter(lock, settings));
  return runToEnd(store, settings, state.operation, path, orders, 'resume');
}

/**
 * How long to wait before querying a chunk in doubt: until no request of the dead holder this resume took the journal
 * over from can still be in flight. The takeover proved it dead (`provenGoneAt`), so each request it wrote was
 * written before then, and ended its timeout plus send margin later (the holder's own, from its lock, or this
 * resume's when the lock does not say; the longer of the two). No clock of the dead holder's is trusted. Nothing to
 * wait for when the journal's last holder ended cleanly (its lock was released).
 */
function quietWaitAfter(lock: JournalLock, settings: { readonly timeoutMs: number; readonly sendMarginMs: number }): number {
  if (lock.tookOverFrom === null) return 0;
  const endWithin = Math.max(lock.tookOverFrom.requestsEndWithinMs ?? 0, requestsEndWithinMs(settings));
  return Math.max(0, lock.tookOverFrom.provenGoneAt + endWithin - Date.now());
}
