// Test helpers: a client, a proxy and a sandbox over real HTTP on 127.0.0.1, one order of every operation, and a
// front that throttles.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type ClientOptions, type GwClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { payoutRequest } from '@gw/test-support';

export const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
export const CARD = '4111111111111111';
export const CVV = '737';
/** A fixed clock: two sandboxes with the same seed and clock give the same answers byte for byte. */
export const fixedClock = (): Date => new Date('2026-03-04T05:06:07Z');

/** A client of the sandbox's default merchant at `baseUrl`. */
export function clientAt(baseUrl: string, options: Partial<ClientOptions> = {}): GwClient {
  return createClient({
    baseUrl,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    retry: { attempts: 1 },
    ...options,
  } as ClientOptions);
}

/** Calls every operation once, in every wire form the spec shows (a form-encoded authorise too). */
export async function everyOperation(client: GwClient, formClient: GwClient, tag: string): Promise<void> {
  const payment = (n: number, extra: Record<string, unknown> = {}) => ({
    order_no: `${tag}-${n}`,
    currency: 'USD',
    amount: '40.00',
    card: CARD,
    expiration_month: '12',
    expiration_year: '2031',
    security_code: CVV,
    ...extra,
  });
  const one = await client.authoriseCard(payment(1));
  const two = await formClient.authoriseCard(payment(2));
  const three = await client.authoriseCard(payment(3));
  const sub = await client.authoriseCard(payment(4, { subscription: { contract_name: 'Gold', interval: 'day', interval_count: '30', billing_cycle: 12 } }));
  const ref = (r: typeof one, order: string) => ({ transaction_id: r.transaction_id!, order_no: order, currency: 'USD', amount: '40.00' });
  await client.authoriseAlternative({
    order_no: `${tag}-5`,
    currency: 'BRL',
    amount: '80.00',
    payment_method: 'PIX',
    return_url: 'https://shop.example.test/back',
  });
  await client.checkout({ order_no: `${tag}-6`, currency: 'USD', amount: '59.90', return_url: 'https://shop.example.test/ok' });
  await client.capture({ capture_orders: [ref(one, `${tag}-1`)] });
  await client.refund({ refund_orders: [{ ...ref(one, `${tag}-1`), refund_amount: '20.00', refund_reason: 'damaged' }] });
  await client.review({ review_orders: [{ ...ref(two, `${tag}-2`), review_flag: '1' }] });
  await client.cancel({ cancel_orders: [ref(three, `${tag}-3`)] });
  await client.query({ transaction_id: [two.transaction_id!] });
  await client.cancelSubscription({ recurring_id: sub.recurring_id, contract_name: 'Gold' });
  await client.payout(payoutRequest(`0f8fad5b-d9cb-469f-a165-70867728950${tag.length % 10}`));
}

/** What a scripted front answers a request with: a throttle of its own, or `pass` (forward it to the gateway behind). */
export type ScriptedAnswer = 'pass' | { readonly status: number; readonly retryAfter?: () => string };

/**
 * A gateway that throttles (UNKNOWNS U50): a front on 127.0.0.1 that answers each path's next requests from `script`,
 * then passes the rest to `upstream`. Its throttle bodies quote a card number, to show the proxy never reads them.
 */
export async function scriptedFront(upstream: string, script: Record<string, ScriptedAnswer[]>): Promise<{ url: string } & AsyncDisposable> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const answer = script[(req.url ?? '/').split('?')[0]!]?.shift() ?? 'pass';
    if (answer === 'pass') {
      const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (upstreamAnswer) => {
        res.writeHead(upstreamAnswer.statusCode!, upstreamAnswer.headers);
        upstreamAnswer.pipe(res);
      });
      req.pipe(forward);
      return;
    }
    req.resume();
    const headers = answer.retryAfter ? { 'retry-after': answer.retryAfter() } : {};
    res.writeHead(answer.status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: 'slow down', card: CARD }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, [Symbol.asyncDispose]: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}
