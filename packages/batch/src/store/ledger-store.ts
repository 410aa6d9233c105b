import type { JournalEntry } from '../batch-journal.ts';

/**
 * Where a batch records its intents and outcomes, one entry after another: an entry is durable once `append`
 * resolves, in the order appended. The file journal (`BatchJournal`) is one; `PgLedgerStore` (PostgreSQL) is another.
 * `entries` reads every durable entry back, for `resumeBatch` and `outcomesFromJournal`.
 */
export interface LedgerStore {
  /** What names the record: the journal's path, or `postgres:<batch id>`. */
  readonly path: string;
  append(...entries: JournalEntry[]): Promise<void>;
  close(): Promise<void>;
}
