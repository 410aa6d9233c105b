// A small merchant web app for the browser tests: it creates each order through @gw/client against a sandbox, sends
// the shopper's browser on (the checkout page, the issuer_url), and has return, cancel and notify endpoints.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, verifyReturnParameters, type GwClient, type ReturnOperation } from '@gw/client';
import { createNotificationReceiver, type NotificationEvent } from '@gw/notifications';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, TEST_CARDS, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { orderNo } from '@gw/test-support';

/** A running merchant app. */
export interface MerchantApp {
  readonly url: string;
  readonly client: GwClient;
  /** Each call of the app's notification handler: a verified, de-duplicated event (@gw/notifications at /notify). */
  readonly notifications: NotificationEvent[];
  /** Deliveries to /notify the receiver refused (bad signature, stale, malformed); a test expects none. */
  readonly refusedNotifications: unknown[];
  /** The operation of each order this app created, by order_no. */
  readonly operations: Map<string, ReturnOperation>;
  close(): Promise<void>;
}

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(res: ServerResponse, status: number, title: string, body: string): void {
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#1d2530}dt{color:#5b6675}dd{margin:0 0 .4rem}</style>' +
        `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

/** The return or cancel page: the verified parameters, and the order as a query shows it. */
const TITLES: Readonly<Record<string, string>> = {
  authorised: 'Thank you for your order',
  declined: 'Your payment was declined',
  cancelled: 'Your order was cancelled',
  pending: 'Your payment is pending',
  expired: 'Your payment expired',
};

async function returnPage(app: { client: GwClient; operations: Map<string, ReturnOperation> }, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://merchant');
  const operation = app.operations.get(url.searchParams.get('order_no') ?? '') ?? 'checkout';
  const verified = await verifyReturnParameters(url.searchParams, { verifier: signer, operation });
  const queried = await app.client.query({ order_no: verified.order_no });
  const status = String((queried.orders_list?.[0] as { payment_status?: string } | undefined)?.payment_status ?? '');
  const rows = [
    ['Order', verified.order_no],
    ['Result', verified.result],
    ['Result info', verified.result_info],
    ['Amount', `${verified.amount} ${verified.currency}`],
    ['payment_status (query)', status],
  ];
  html(
    res,
    200,
    TITLES[verified.result] ?? 'Your order',
    `<p id="verified">Signature verified.</p><dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k!)}</dt><dd data-field="${escapeHtml(k!)}">${escapeHtml(v!)}</dd>`).join('')}</dl>`,
  );
}

/** Starts the merchant app on 127.0.0.1 against `sandbox`. */
export async function startMerchantApp(sandbox: Sandbox): Promise<MerchantApp> {
  const client = createClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer });
  const notifications: NotificationEvent[] = [];
  const refusedNotifications: unknown[] = [];
  // The merchant's notification handler: verified with the shared secret, run once per event id (duplicates and resends
  // are acknowledged without running it again), acknowledged with 2xx only after it returned.
  const receiver = createNotificationReceiver({
    verifiers: [signer],
    onEvent: (event) => void notifications.push(event),
    onError: (error, answer) => {
      if (answer.outcome === 'refused') refusedNotifications.push(error);
    },
  });
  const operations = new Map<string, ReturnOperation>();
  let base = '';
  const links = () => ({ return_url: `${base}/return`, cancel_url: `${base}/cancel`, notify_url: `${base}/notify` });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    if (req.method === 'POST' && url.pathname === '/notify') return receiver.node(req, res);
    if (url.pathname === '/buy/checkout') {
      const no = orderNo('WEB');
      operations.set(no, 'checkout');
      const page = await client.checkout({
        order_no: no,
        currency: 'USD',
        amount: url.searchParams.get('amount') ?? '59.90',
        first_name: 'Ana',
        last_name: 'Lee',
        shopper_email: 'ana@example.test',
        cart_items: [{ basic_item_data: { name: 'Blue mug', quantity: '2' } }],
        ...links(),
      });
      // The gateway's page auto-submits its form to the hosted page: serve it as it came.
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
    }
    if (url.pathname === '/buy/alternative') {
      const no = orderNo('PIX');
      operations.set(no, 'authoriseAlternative');
      const { notify_url, return_url } = links();
      const respon = await client.authoriseAlternative({ order_no: no, currency: 'BRL', amount: '80.00', payment_method: 'PIX', notify_url, return_url });
      return void res.writeHead(302, { location: respon.issuer_url! }).end();
    }
    if (url.pathname === '/buy/card-3ds') {
      // A direct card payment (the shop's own card form, not shown) that the issuer wants to challenge (UNKNOWNS U17).
      const no = orderNo('CARD');
      operations.set(no, 'authoriseCard');
      const respon = (await client.authoriseCard({
        order_no: no,
        currency: 'USD',
        amount: '42.00',
        card: TEST_CARDS.threeDsRequired,
        expiration_month: '12',
        expiration_year: '2030',
        security_code: '123',
        open3d: 'do3DS',
        notify_url: links().notify_url,
      })) as Record<string, unknown>;
      if (respon.order_status !== '2' || typeof respon.challenge_url !== 'string')
        return html(res, 200, 'Payment answered at once', `<p>${escapeHtml(String(respon.result_info))}</p>`);
      return void res.writeHead(302, { location: respon.challenge_url }).end();
    }
    if (url.pathname === '/return' || url.pathname === '/cancel') return returnPage({ client, operations }, req, res);
    html(res, 404, 'Not found', '');
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => html(res, 500, 'Merchant app error', `<pre>${escapeHtml(String(error))}</pre>`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    client,
    notifications,
    refusedNotifications,
    operations,
    close: async () => {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
