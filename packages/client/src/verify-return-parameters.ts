// UNKNOWNS U22: the gateway's return to return_url is not shown; @gw/sandbox adds these parameters, signed, and this
// checks them. A verified return says what the shopper saw; the notification or a query is the order's final word.
import { createSignableMessage, type Verifier } from '@gw/signer-interface';
import { ReturnParametersError } from './errors/return-parameters-error.ts';

/** The signed return parameters, in the order they are signed; `encryption_data` carries the signature. */
export const RETURN_PARAMETERS = ['transaction_id', 'order_no', 'amount', 'currency', 'result', 'result_info'] as const;

/** The operations whose orders come back through return_url (or end on a challenge page). */
export type ReturnOperation = 'checkout' | 'authoriseAlternative' | 'authoriseCard';

/** Verified return parameters. `result`: `authorised`, `declined`, `cancelled`, `pending` or `expired`. */
export type ReturnParameters = Readonly<Record<(typeof RETURN_PARAMETERS)[number], string>>;

/** What `verifyReturnParameters` needs: the verifier of the gateway's signatures and the order's operation. */
export interface VerifyReturnOptions {
  readonly verifier: Verifier;
  readonly operation: ReturnOperation;
}

function asParams(query: URLSearchParams | string | Readonly<Record<string, string>>): URLSearchParams {
  if (query instanceof URLSearchParams) return query;
  if (typeof query === 'string') return query.includes('://') ? new URL(query).searchParams : new URLSearchParams(query);
  return new URLSearchParams(query as Record<string, string>);
}

/**
 * Checks the parameters the shopper's browser brought to return_url / cancel_url (a URL, a query string or its
 * parameters) and returns them; throws ReturnParametersError when one is absent or the signature does not verify.
 * The merchant's own query parameters on return_url are ignored.
 */
export async function verifyReturnParameters(query: URLSearchParams | string | Readonly<Record<string, string>>, options: VerifyReturnOptions): Promise<ReturnParameters> {
  const params = asParams(query);
  const record: Record<string, string> = {};
  const absent: string[] = [];
  for (const name of RETURN_PARAMETERS) {
    const value = params.get(name);
    if (value === null) absent.push(name);
    else record[name] = value;
  }
  const signature = params.get('encryption_data');
  const fail = (reason: 'incomplete' | 'missing' | 'mismatch') => new ReturnParametersError({ reason, operation: options.operation, absent, parameters: record });
  if (absent.length > 0) throw fail('incomplete');
  if (!signature) throw fail('missing');
  const message = createSignableMessage({ operation: options.operation, record, body: () => new URLSearchParams(record).toString() });
  if ((await options.verifier.verify(message, signature)) !== true) throw fail('mismatch');
  return Object.freeze(record) as ReturnParameters;
}
