import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';

/** Context of a ConnectionError. */
export interface ConnectionErrorDetails {
  readonly operation: OperationName;
  readonly path: string;
  /** False: the request never left (refused, DNS, TLS): nothing happened. True: only for query, which moves no money. */
  readonly sent: boolean;
  /** The transport's error code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`. */
  readonly reason: string;
  /** How many attempts were made (retries included). */
  readonly attempts: number;
}

/**
 * No HTTP answer, and no money at risk: the request never left (connection refused, DNS, TLS), or it was a query.
 * Shares the code `GW_HTTP` with HttpError: the HTTP exchange failed. A money-moving request that left and got no
 * answer is an OutcomeUnknownError instead.
 */
export class ConnectionError extends GwError<ConnectionErrorDetails> {
  override readonly name = 'ConnectionError';

  constructor(details: ConnectionErrorDetails, options?: { cause?: unknown }) {
    const what = details.sent ? 'the connection was lost before an answer came' : 'the request never left, so nothing happened and it is safe to send again';
    super(
      GW_ERROR_CODES.http,
      `${details.operation}: ${what} (${details.reason}, ${details.path}, ${details.attempts} attempt${details.attempts === 1 ? '' : 's'})`,
      details,
      options,
    );
  }
}
