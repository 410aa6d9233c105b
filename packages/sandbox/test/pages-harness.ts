// Helpers for the shopper pages over real HTTP: a form POST as a browser sends it, without following redirects.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructEventAsync, type NotificationEvent } from '@gw/notifications';
import { checkoutForm } from '@gw/types';
import { decodeAlternativeRespon, decodeCheckoutPage } from '@gw/xml-codec';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { orderNo, send, signer } from './harness.ts';

/** What a page answered. */
export interface PageReply {
  status: number;
  location: string | null;
  html: string;
}

/** GETs (no form) or POSTs a form to a sandbox page, not following redirects. */
export async function page(url: string, form?: Record<string, string>): Promise<PageReply> {
  const init: RequestInit = form
    ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }
    : {};
  const response = await fetch(url, { ...init, redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** A good card entry for the hosted page. */
export function cardForm(card: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { sandbox_action: 'pay', card_number: card, expiry: '12/30', cvv: '123', holder: 'Ana Lee', ...overrides };
}

/** The transaction id of the order numbered `no` (the page's address holds a token, not the id). */
export function transactionIdOf(sandbox: Sandbox, no: string): string {
  const order = [...sandbox.state.orders.values()].find((o) => o.orderNo === no);
  if (!order) throw new Error(`no order ${no} in the sandbox`);
  return order.transactionId;
}

/** Creates a checkout order; returns its page action (absolute), transaction id and the auto-submitted fields. */
export async function createCheckout(sandbox: Sandbox, fields: Record<string, unknown> = {}) {
  const no = orderNo('CHK');
  const reply = await send(sandbox, 'checkout', {
    order_no: no,
    currency: 'USD',
    amount: '59.90',
    return_url: 'https://shop.example.test/return?cart=7',
    cancel_url: 'https://shop.example.test/cancel',
    ...fields,
  });
  if (reply.status !== 200) throw new Error(`checkout answered ${reply.status}: ${reply.text}`);
  const form = decodeCheckoutPage(reply.text);
  return {
    orderNo: no,
    action: form.action,
    transactionId: transactionIdOf(sandbox, no),
    hidden: Object.fromEntries(form.entries.filter(([name]) => name !== checkoutForm.allParamsField)),
  };
}

/** Creates an alternative-method order; returns its issuer_url and transaction id. */
export async function createAlternative(sandbox: Sandbox, fields: Record<string, unknown> = {}) {
  const no = orderNo('ALT');
  const respon = decodeAlternativeRespon(
    (
      await send(sandbox, 'authoriseAlternative', {
        order_no: no,
        currency: 'BRL',
        amount: '80.00',
        payment_method: 'PIX',
        return_url: 'https://shop.example.test/back',
        ...fields,
      })
    ).text,
  );
  const issuerUrl = respon.issuer_url!;
  return { orderNo: no, issuerUrl, transactionId: transactionIdOf(sandbox, no) };
}

/** What the notification sink received: each verified event, its result record, and deliveries it refused. */
export interface NotificationSink {
  url: string;
  /** Every verified event, in arrival order (duplicates and resends included). */
  events: NotificationEvent[];
  /** The result record (`event.data`) of each verified event. */
  bodies: Record<string, unknown>[];
  /** Every delivery's body exactly as received, verified or not. */
  raw: string[];
  /** Deliveries that did not verify (answered 400); a test expects none. */
  refused: unknown[];
  server: Server;
}

/** A notify_url on 127.0.0.1 that verifies each delivery with @gw/notifications (the sandbox's secret) and keeps it. */
export async function notificationSink(): Promise<NotificationSink> {
  const sink: Omit<NotificationSink, 'url' | 'server'> = { events: [], bodies: [], raw: [], refused: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        sink.raw.push(Buffer.concat(chunks).toString('utf8'));
        constructEventAsync({ body: Buffer.concat(chunks), headers: req.headers }, { verifiers: [signer] }).then(
          (event) => {
            sink.events.push(event);
            sink.bodies.push(event.data as unknown as Record<string, unknown>);
            res.writeHead(200).end('ok');
          },
          (error: unknown) => {
            sink.refused.push(error);
            res.writeHead(400).end();
          },
        );
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, server, ...sink };
}

/**
 * Before the file's tests, a sandbox that retries notifications after 10 ms and a notification sink, handed to `ready`;
 * both stopped after them.
 */
export function sandboxAndSinkForFile(ready: (sandbox: Sandbox, sink: NotificationSink) => void): void {
  let sandbox: Sandbox | undefined;
  let sink: NotificationSink | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ notify: { baseDelayMs: 10 } });
    sink = await notificationSink();
    ready(sandbox, sink);
  });
  afterAll(async () => {
    await sandbox?.stop();
    sink?.server.close();
  });
}
