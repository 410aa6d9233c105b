import { GW_ERROR_CODES, GwError } from '@gw/types';

/** A batch in a PostgreSQL ledger that cannot be started or resumed as asked (it exists, it does not, another operation). */
export class LedgerBatchError extends GwError<{ batch: string; problem: string }> {
  override readonly name = 'LedgerBatchError';

  constructor(batch: string, problem: string) {
    super(GW_ERROR_CODES.config, `batch ${batch} in the ledger: ${problem}`, { batch, problem });
  }
}
