export {
  BatchInterruptedError,
  BatchSettingsError,
  BatchThrottledError,
  JournalDamagedError,
  JournalInUseError,
  JournalLockedError,
  JournalLockLostError,
  JournalMismatchError,
  JournalWriteError,
  LedgerBatchError,
  LedgerConnectionError,
  LedgerNotMigratedError,
  LedgerUnavailableError,
  OrderColumnsError,
  OrderSourceError,
  SendGuardSkippedError,
  UnmigratedLedgerError,
  type BatchThrottledDetails,
  type JournalDamagedDetails,
  type JournalInUseDetails,
  type JournalLockedDetails,
  type JournalLockRefusal,
  type JournalWriteDetails,
  type LedgerConnectionDetails,
  type LedgerNotMigratedDetails,
  type LedgerUnavailableDetails,
  type OrderSourceProblem,
} from './errors.ts';
export { runBatch, type RunBatchOptions } from './run-batch.ts';
export { resumeBatch, runBatchWorker, type BatchWorkerOptions, type ResumeBatchOptions } from './resume-batch.ts';
export { outcomesFromLedger, type LedgerBatchResult, type LedgerSettings } from './postgres/ledger-batch.ts';
export { newBatchId } from './settings/names.ts';
export { BATCH_SETTINGS, type NumericSetting, type SettingScope } from './settings/settings-table.ts';
export { resolveBatchSettings, type BatchEntry, type BatchStore, type ResolvedBatchSettings } from './settings/resolve-batch-settings.ts';
export type { WorkerStats } from './runner/worker-loop.ts';
export { LEDGER_MIGRATIONS, type LedgerMigration } from './postgres/schema.ts';
export { ledgerUrlHoldsSecrets, maskedLedgerUrl } from './postgres/masked-url.ts';
export { migrateLedger, type LedgerMigrationResult } from './postgres/migrate-ledger.ts';
export { ledgerGrants, LEDGER_SEQUENCES, LEDGER_TABLES } from './postgres/ledger-grants.ts';
export type { BatchResult, BatchSettings } from './settings/batch-settings.ts';
export type { BatchClient, BatchOrders, BatchResults, QuerySelection } from './operation/batch-records.ts';
export { BATCH_OPERATIONS, isBatchOperation, type BatchOperation } from './operation/batch-operations.ts';
export type { OrderOutcome, OutcomeCounts, OutcomeKind } from './outcome.ts';
export type { BatchProgress } from './progress.ts';
export { cannotTellReconciler, type ReconcileInput, type ReconcileVerdict, type Reconciler } from './reconciler.ts';
export {
  BatchJournal,
  openSyncedJournalFile,
  type JournalEntry,
  type JournalFile,
  type SyncedJournalFile,
  type OpenJournalFile,
} from './journal/batch-journal.ts';
export type { JournalLockHolder } from './journal/lock-holder.ts';
export { ordersFromCsv, ordersFromJsonl, type OrderSourceOptions } from './order-sources.ts';
export {
  orderColumnProblems,
  orderColumnsOf,
  type OrderColumnProblems,
  type OrderColumns,
  type OrderColumnsDetails,
  type OrderColumnsPlace,
  type UnknownOrderColumn,
} from './intake/order-columns.ts';
export { MAX_ORDER_LINE_BYTES, type OrderBytes } from './checked-text.ts';
export { outcomesFromJournal, RESULT_COLUMNS, writeResultsCsv, writeResultsJsonl } from './export-results.ts';
