// UNKNOWNS U22: the gateway's return to return_url is not shown; @gw/sandbox adds these parameters, signed, and this
// checks them. A verified return says what the shopper saw; the notification or a query is the order's final word.
import { RETURN_PARAMETERS as SIGNED_RETURN_PARAMETERS, returnParametersMessage, type Verifier } from '@gw/signer-interface';
import { ReturnParametersError } from './errors/return-parameters-error.ts';

/** The signed return parameters, in the order they are signed (`@gw/signer-interface`'s list); `encryption_data` carries the signature. */
export const RETURN_PARAMETERS = SIGNED_RETURN_PARAMETERS;

/** Verified return parameters. `result`: `authorised`, `declined`, `cancelled`, `pending` or `expired`. */
export type ReturnParameters = Readonly<Record<(typeof RETURN_PARAMETERS)[number], string>>;

/** The operations whose orders come back through return_url (or end on a challenge page). */
export type ReturnOperation = 'checkout' | 'authoriseAlternative' | 'authoriseCard';

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
export async function verifyReturnParameters(
  query: URLSearchParams | string | Readonly<Record<string, string>>,
  options: VerifyReturnOptions,
): Promise<ReturnParameters> {
  const params = asParams(query);
  const record: Record<string, string> = {};
  const absent: string[] = [];
  for (const name of RETURN_PARAMETERS) {
    const value = params.get(name);
    if (value === null) absent.push(name);
    else record[name] = value;
  }
  const signature = params.get('encryption_data');
  const fail = (reason: 'incomplete' | 'missing' | 'mismatch') =>
    new ReturnParametersError({ reason, operation: options.operation, absent, parameters: record });
  if (absent.length > 0) throw fail('incomplete');
  if (!signature) throw fail('missing');
  const parameters = Object.freeze(record) as ReturnParameters;
  if ((await options.verifier.verify(returnParametersMessage(options.operation, parameters), signature)) !== true) throw fail('mismatch');
  return parameters;
}
