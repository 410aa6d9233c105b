import { GW_ERROR_CODES, GwError } from '@gw/types';

/** What a LedgerUnavailableError reports: the batch, for how long the ledger was out of reach, and the last failure. */
export interface LedgerUnavailableDetails {
  readonly batch: string | null;
  readonly unreachableMs: number;
  /** The driver's last error code (`ECONNREFUSED`, `57P01`...) or name. */
  readonly reason: string;
  /** Always `resume`: requests in flight were finished; resume the batch once the database is back. */
  readonly next: 'resume';
}

/**
 * The PostgreSQL ledger stayed out of reach longer than `ledgerOutageMs`: the worker sent nothing new meanwhile, let
 * the requests in flight finish, and stopped. Chunks whose outcomes it could not write are taken over by the resume,
 * which queries them before anything is sent again.
 */
export class LedgerUnavailableError extends GwError<LedgerUnavailableDetails> {
  override readonly name = 'LedgerUnavailableError';

  constructor(details: Omit<LedgerUnavailableDetails, 'next'>, options?: { cause?: unknown }) {
    const what = details.batch ? `batch ${details.batch} stopped` : 'the batch stopped';
    super(
      GW_ERROR_CODES.interrupted,
      `the PostgreSQL ledger could not be reached for ${Math.round(details.unreachableMs / 1000)} s (${details.reason}): ${what}, sending nothing new; the requests in flight were finished. Once the database is back, resume it (resumeBatch with the same ledger and batch, or gw batch … --ledger URL --batch ${details.batch ?? 'ID'} --resume): chunks whose outcomes could not be written are queried before anything is sent again`,
      { ...details, next: 'resume' },
      options,
    );
  }
}
