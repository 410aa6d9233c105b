// UNKNOWNS U22: the gateway's return to return_url is not shown; @gw/sandbox signs these parameters and @gw/client's
// verifyReturnParameters checks them, both through this one message.
import type { OperationName } from '@gw/types';
import { createSignableMessage, type SignableMessage } from './signable-message.ts';

/** The signed return parameters, in the order they are signed; `encryption_data` carries the signature. */
export const RETURN_PARAMETERS = ['transaction_id', 'order_no', 'amount', 'currency', 'result', 'result_info'] as const;

/** Return parameters, one text each. `result`: `authorised`, `declined`, `cancelled`, `pending` or `expired`. */
export type ReturnParameters = Readonly<Record<(typeof RETURN_PARAMETERS)[number], string>>;

/**
 * What a return's `encryption_data` signs: the parameters as fields, in `RETURN_PARAMETERS` order, and as a query
 * string for signers that sign the body; the operation is the order's (`checkout`, `authoriseCard`, ...).
 */
export function returnParametersMessage(operation: OperationName, parameters: ReturnParameters): SignableMessage {
  const record = Object.fromEntries(RETURN_PARAMETERS.map((name) => [name, parameters[name]]));
  return createSignableMessage({ operation, record, body: () => new URLSearchParams(record).toString() });
}
