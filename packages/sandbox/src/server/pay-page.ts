// UNKNOWNS U22: the issuer page and the checkout action send the shopper on to return_url.
import type { ServerResponse } from 'node:http';
import type { SandboxState } from '../state.ts';

/** A header-safe Location for `url` (a request field, so anything), or null when it cannot be one. */
function location(url: string): string | null {
  if (/^[\x21-\x7e]*$/.test(url)) return url;
  try {
    return encodeURI(url);
  } catch {
    return null;
  }
}

/** Answers `/sandbox/pay/<transaction id>`: a redirect to the order's return_url, or a short text page. */
export function payPage(state: SandboxState, res: ServerResponse, encodedTransactionId: string): void {
  let transactionId: string;
  try {
    transactionId = decodeURIComponent(encodedTransactionId);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('sandbox: the payment id is not valid percent-encoding\n');
    return;
  }
  const order = state.orders.get(transactionId);
  const returnUrl = order && typeof order.record.return_url === 'string' ? location(order.record.return_url) : null;
  if (returnUrl) res.writeHead(302, { location: returnUrl }).end();
  else res.writeHead(order ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(order ? `sandbox: ${order.transactionId} paid\n` : 'sandbox: no such payment\n');
}
