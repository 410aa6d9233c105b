import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { bodyExcerpt } from '../redact.ts';
import { reconcileAdvice, type RequestIdentifiers } from '../request-identifiers.ts';

/** Context of an HttpError. */
export interface HttpErrorDetails {
  readonly operation: OperationName;
  readonly path: string;
  readonly status: number;
  /** The start of the body, card data redacted. Never parsed as a result (UNKNOWNS U49). */
  readonly bodyExcerpt: string;
  /**
   * `unknown` for a money-moving operation: the request reached the gateway and the seed shows no status code that
   * proves nothing happened (§7.5), so reconcile before sending it again. Null for query, which moves no money.
   */
  readonly outcome: 'unknown' | null;
  /** The request's order numbers, transaction ids, request id... for reconciling (money-moving only). */
  readonly identifiers: RequestIdentifiers | null;
}

/** A response with a status other than 2xx (UNKNOWNS U49); its body is never read as a result. */
export class HttpError extends GwError<HttpErrorDetails> {
  override readonly name = 'HttpError';

  constructor(options: { operation: OperationName; path: string; status: number; body: string; identifiers: RequestIdentifiers | null }) {
    const excerpt = bodyExcerpt(options.body);
    const moneyMoving = options.identifiers !== null;
    const advice = moneyMoving
      ? ` The request reached the gateway, so its outcome is unknown: ${reconcileAdvice(options.operation, options.identifiers!)}`
      : '';
    super(GW_ERROR_CODES.http, `${options.operation}: HTTP ${options.status} from ${options.path}${excerpt ? `: ${excerpt}` : ''}.${advice}`, {
      operation: options.operation,
      path: options.path,
      status: options.status,
      bodyExcerpt: excerpt,
      outcome: moneyMoving ? 'unknown' : null,
      identifiers: options.identifiers,
    });
  }

  /** The HTTP status. */
  get status(): number {
    return this.details.status;
  }

  /** `unknown` for money-moving operations (reconcile), null for query. */
  get outcome(): 'unknown' | null {
    return this.details.outcome;
  }
}
