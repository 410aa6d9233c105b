import { GW_ERROR_CODES, GwError } from '@gw/types';

/** What `JournalInUseError` found: the journal's path and how many bytes it already holds. */
export interface JournalInUseDetails {
  readonly journal: string;
  readonly bytes: number;
}

/**
 * `runBatch` was given a journal that already holds a batch. Appending a second batch to it would send again every
 * order the first one sent, so nothing is sent: finish that batch with `resumeBatch`, or give a new path.
 */
export class JournalInUseError extends GwError<JournalInUseDetails> {
  override readonly name = 'JournalInUseError';

  constructor(journal: string, bytes: number) {
    super(
      GW_ERROR_CODES.config,
      `${journal}: the journal already holds a batch (${bytes} bytes), so runBatch sent nothing; finish that batch with ` +
        'resumeBatch (gw batch ... --resume) and this journal, or give runBatch a journal path of its own',
      { journal, bytes },
    );
  }
}
