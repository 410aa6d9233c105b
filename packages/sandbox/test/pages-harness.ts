// Helpers for the shopper pages over real HTTP: a form POST as a browser sends it, without following redirects.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutForm } from '@gw/types';
import { decodeAlternativeRespon, decodeCheckoutPage } from '@gw/xml-codec';
import type { Sandbox } from '../src/index.ts';
import { orderNo, send } from './harness.ts';

/** What a page answered. */
export interface PageReply {
  status: number;
  location: string | null;
  html: string;
}

/** GETs (no form) or POSTs a form to a sandbox page, not following redirects. */
export async function page(url: string, form?: Record<string, string>): Promise<PageReply> {
  const init: RequestInit = form ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() } : {};
  const response = await fetch(url, { ...init, redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** A good card entry for the hosted page. */
export function cardForm(card: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { sandbox_action: 'pay', card_number: card, expiry: '12/30', cvv: '123', holder: 'Ana Lee', ...overrides };
}

/** Creates a checkout order; returns its page action (absolute), transaction id and the auto-submitted fields. */
export async function createCheckout(sandbox: Sandbox, fields: Record<string, unknown> = {}) {
  const no = orderNo('CHK');
  const reply = await send(sandbox, 'checkout', { order_no: no, currency: 'USD', amount: '59.90', return_url: 'https://shop.example.test/return?cart=7', cancel_url: 'https://shop.example.test/cancel', ...fields });
  if (reply.status !== 200) throw new Error(`checkout answered ${reply.status}: ${reply.text}`);
  const form = decodeCheckoutPage(reply.text);
  const transactionId = decodeURIComponent(form.action.split('/').pop()!);
  return { orderNo: no, action: form.action, transactionId, hidden: Object.fromEntries(form.entries.filter(([name]) => name !== checkoutForm.allParamsField)) };
}

/** Creates an alternative-method order; returns its issuer_url and transaction id. */
export async function createAlternative(sandbox: Sandbox, fields: Record<string, unknown> = {}) {
  const no = orderNo('ALT');
  const respon = decodeAlternativeRespon((await send(sandbox, 'authoriseAlternative', { order_no: no, currency: 'BRL', amount: '80.00', payment_method: 'PIX', return_url: 'https://shop.example.test/back', ...fields })).text);
  const issuerUrl = respon.issuer_url!;
  return { orderNo: no, issuerUrl, transactionId: decodeURIComponent(issuerUrl.split('/').pop()!) };
}

/** A notification endpoint on 127.0.0.1 that keeps every body it receives. */
export async function notificationSink(): Promise<{ url: string; bodies: Record<string, unknown>[]; server: Server }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, bodies, server };
}
