import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Why the journal could not be written: the path and the system's error code (`ENOSPC`, `EIO`, ...). */
export interface JournalWriteDetails {
  readonly journal: string;
  readonly reason: string;
}

/**
 * The journal could not be written (a full disk, an I/O error). The batch stops once the requests in flight are
 * answered; nothing more is sent, since nothing more could be journaled. What reached the journal is resumable.
 */
export class JournalWriteError extends GwError<JournalWriteDetails> {
  override readonly name = 'JournalWriteError';

  constructor(journal: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' && code ? code : cause instanceof Error ? cause.name : 'unknown';
    const fix = reason === 'ENOSPC' ? 'free space on its disk' : 'fix what stops it being written';
    super(
      GW_ERROR_CODES.interrupted,
      `${journal}: the batch journal could not be written (${reason}), so the batch stopped sending; ${fix}, then finish ` +
        'the batch with resumeBatch (gw batch ... --resume) and the same journal: orders whose outcome was not journaled are settled by query',
      { journal, reason },
      { cause },
    );
  }
}
