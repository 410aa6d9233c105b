import { GW_ERROR_CODES, GwError, operations, type OperationName } from '@gw/types';

/** Details of a call that failed after its request was sent. */
export interface SentThenFailedDetails {
  readonly operation: OperationName;
  readonly order_no: readonly string[];
  readonly transaction_id: readonly string[];
  readonly request_id: string | null;
  /** The name of what was thrown (`RangeError`, `Error`, ...). */
  readonly thrown: string;
  readonly reconcile: string;
}

function identifiers(operation: OperationName, record: unknown): Pick<SentThenFailedDetails, 'order_no' | 'transaction_id' | 'request_id'> {
  const top = (record ?? {}) as Record<string, unknown>;
  const batch = operations[operation].batch;
  const listed = batch && Array.isArray(top[batch.array]) ? (top[batch.array] as unknown[]) : [top];
  const pick = (name: string) => listed.map((e) => (e as Record<string, unknown> | null)?.[name]).filter((v): v is string => typeof v === 'string' && v !== '');
  return { order_no: pick('order_no'), transaction_id: pick('transaction_id'), request_id: typeof top.request_id === 'string' ? top.request_id : null };
}

/**
 * The request was sent, then something threw while its answer was read or verified (a verifier or signing service
 * that is down, an answer nested too deep to walk): it may have been applied, so it is an unknown outcome, never
 * "not sent".
 */
export class SentThenFailedError extends GwError<SentThenFailedDetails> {
  override readonly name = 'SentThenFailedError';

  constructor(operation: OperationName, record: unknown, thrown: unknown) {
    const ids = identifiers(operation, record);
    const by = ids.request_id
      ? `request_id ${ids.request_id}`
      : ids.order_no.length > 0
        ? `order_no ${ids.order_no.join(', ')}`
        : ids.transaction_id.length > 0
          ? `transaction_id ${ids.transaction_id.join(', ')}`
          : 'its identifiers';
    const reconcile = `query by ${by} (gw call query) before sending it again`;
    const what = thrown instanceof Error ? `${thrown.name}: ${thrown.message.slice(0, 200)}` : 'a non-error value';
    super(
      GW_ERROR_CODES.outcomeUnknown,
      `${operation}: the request was sent, then reading or verifying the answer failed (${what}); it may or may not have happened. Reconcile: ${reconcile}`,
      { operation, ...ids, thrown: thrown instanceof Error ? thrown.name : typeof thrown, reconcile },
      { cause: thrown },
    );
  }
}
