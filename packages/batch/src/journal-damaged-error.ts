import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Where a journal is damaged: its path, the 1-based line, the byte offset the line starts at, and what is wrong. */
export interface JournalDamagedDetails {
  readonly journal: string;
  readonly line: number;
  readonly byte: number;
  readonly problem: string;
}

/**
 * A journal line before the last one is not a journal entry (a torn last line, left by a crash or a full disk, is
 * not damage: resume cuts it). Nothing after it can be trusted, so the batch is not resumed from it.
 */
export class JournalDamagedError extends GwError<JournalDamagedDetails> {
  override readonly name = 'JournalDamagedError';

  constructor(details: JournalDamagedDetails) {
    super(
      GW_ERROR_CODES.decode,
      `${details.journal}: line ${details.line} (from byte ${details.byte}) ${details.problem}, and lines follow it, so the journal is damaged ` +
        'and cannot be resumed. Restore it from a backup and resume again; without one, settle the orders it names by query ' +
        '(gw batch query) before sending any of them again, and start a new batch with a new journal',
      details,
    );
  }
}
