import { GW_ERROR_CODES, GwError } from '@gw/types';

/** The journal does not belong to this input (another operation, or an order that differs from the one journaled). */
export class JournalMismatchError extends GwError<{ journal: string; index: number | null }> {
  override readonly name = 'JournalMismatchError';

  constructor(journal: string, index: number | null, message: string) {
    super(GW_ERROR_CODES.config, `${journal}: ${message}; resume with the same operation and the same input the batch started with`, { journal, index });
  }
}
