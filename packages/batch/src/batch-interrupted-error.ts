import { GW_ERROR_CODES, GwError } from '@gw/types';

/** The batch was stopped through its signal after the requests in flight finished and were journaled. */
export class BatchInterruptedError extends GwError<{ settled: number; journal: string | null }> {
  override readonly name = 'BatchInterruptedError';

  constructor(settled: number, journal: string | null) {
    super(
      GW_ERROR_CODES.interrupted,
      journal
        ? `batch stopped after ${settled} orders were settled; nothing is in flight; finish it with resumeBatch (gw batch ... --resume) and the journal ${journal}`
        : `batch stopped after ${settled} orders were settled; without a journal it cannot be resumed`,
      { settled, journal },
    );
  }
}
