// UNKNOWNS U22: what the shopper's browser carries back to the merchant's return_url / cancel_url, signed by the
// sandbox's Signer so the merchant can tell it came from the gateway (verify with `verifyReturnParameters`, @gw/client).
import { RETURN_PARAMETERS as SIGNED_RETURN_PARAMETERS, returnParametersMessage, type ReturnParameters } from '@gw/signer-interface';
import type { SandboxDeps } from '../lifecycle/deps.ts';
import type { SandboxOrder } from '../state/state.ts';
import { VARIANT_OPERATION } from '../lifecycle/variant-operation.ts';

/** The signed return parameters, in the order they are signed (`@gw/signer-interface`'s list; `encryption_data` comes last and is not signed). */
export const RETURN_PARAMETERS = SIGNED_RETURN_PARAMETERS;

/** `result` of a return: the order's state when the shopper left the page. */
export type ReturnResult = 'authorised' | 'declined' | 'cancelled' | 'expired' | 'pending';

/** The return parameters of an order, `encryption_data` included, signed as a message of the order's operation. */
export async function signedReturnParameters(deps: SandboxDeps, order: SandboxOrder): Promise<[string, string][]> {
  const result: ReturnResult =
    order.state === 'pending'
      ? 'pending'
      : order.state === 'authorised'
        ? 'authorised'
        : order.state === 'cancelled'
          ? 'cancelled'
          : order.state === 'expired'
            ? 'expired'
            : 'declined';
  const parameters: ReturnParameters = {
    transaction_id: order.transactionId,
    order_no: order.orderNo,
    amount: order.amount,
    currency: order.currency,
    result,
    result_info: order.resultInfo,
  };
  const signature = await deps.signer.sign(returnParametersMessage(VARIANT_OPERATION[order.variant], parameters));
  return [...RETURN_PARAMETERS.map((name): [string, string] => [name, parameters[name]]), ['encryption_data', signature]];
}

/**
 * Where the shopper goes after acting: the order's own `cancel_url` (on cancel, when given) or `return_url` from the
 * signed request, with the signed parameters set in its query; null when the order has no usable http(s) address
 * (the page then shows the result itself: no redirect to an address the merchant did not sign).
 */
export async function returnLocation(deps: SandboxDeps, order: SandboxOrder): Promise<string | null> {
  const field = order.state === 'cancelled' && typeof order.record.cancel_url === 'string' && order.record.cancel_url !== '' ? 'cancel_url' : 'return_url';
  const raw = order.record[field];
  if (typeof raw !== 'string') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  for (const [name, value] of await signedReturnParameters(deps, order)) url.searchParams.set(name, value);
  return url.href;
}
