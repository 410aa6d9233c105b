import type { JournalEntry } from '../batch-journal.ts';

/**
 * Where a single-process batch records its intents and outcomes, one entry after another: an entry is durable once
 * `append` resolves, in the order appended. The file journal (`BatchJournal`) implements it; `resumeBatch` and
 * `outcomesFromJournal` read it back. The PostgreSQL ledger (`PgLedger`) does not: several workers share it through
 * leased chunks (`PgLedger.step`), and the contract suite (`ledger.contract.both-stores-same-outcomes`) checks that
 * both give the same outcomes through the public API.
 */
export interface LedgerStore {
  /** What names the record: the journal's path, or `postgres:<batch id>`. */
  readonly path: string;
  append(...entries: JournalEntry[]): Promise<void>;
  close(): Promise<void>;
}
