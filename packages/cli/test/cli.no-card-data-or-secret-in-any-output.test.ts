// Runs the whole demo and a batch, then searches everything a user or operator can see for card data and the secret.
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { createClient, type ClientHooks } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, TEST_CARDS, startSandbox, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.ts';
import { DEMO_SECURITY_CODE } from '../src/demo/demo-steps.ts';
import { runDemo } from '../src/demo/run-demo.ts';
import { capturedIo } from './io.ts';
import { authorisedOrdersFile } from './sandbox-harness.ts';

const CARDS = Object.values(TEST_CARDS);
const CVV = DEMO_SECURITY_CODE;

/** Every place a card number, the demo's CVV (where it would be a CVV) or the signing secret shows in `text`. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const card of CARDS) {
    // Also split in groups (4111 1111 1111 1111, 4111-1111-...), as a page or a log might print it.
    const spaced = new RegExp(card.match(/.{1,4}/g)!.join('[ -]?'));
    if (spaced.test(text)) found.push(`card ${card.slice(0, 6)}…`);
  }
  // The CVV is three digits that also occur in amounts and ids: look for it where it would be a security code.
  if (new RegExp(`(security_?code|securityCode|cvv|cvc|cv2)[^0-9\\n]{0,40}${CVV}(?![0-9])`, 'i').test(text)) found.push('cvv next to its name');
  if (new RegExp(`["'=]${CVV}(["'&]|$)`, 'm').test(text)) found.push('cvv as a whole value');
  if (text.includes(SANDBOX_DEFAULT_SECRET)) found.push('signing secret');
  return found;
}

let sandbox: Sandbox;
let receiver: Server;
let receiverUrl: string;
const notificationBodies: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7 });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      notificationBodies.push(`${JSON.stringify(request.headers)}\n${Buffer.concat(chunks).toString('utf8')}`);
      response.writeHead(200).end('OK');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/notify`;
});
afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

function stateText(s: Sandbox): string {
  const plain = (_: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? [...v.entries()] : v);
  const { orders, subscriptions, payouts, notifications, requests, ledger, internalErrors } = s.state;
  return `${JSON.stringify({ orders, subscriptions, payouts, notifications, requests, ledger, internalErrors }, plain)}\n${inspect(s.state, { depth: 10, maxArrayLength: null })}`;
}

describe('card data and the secret in what users and operators see', () => {
  it('finds none after the whole demo, a CLI batch and refused calls', async () => {
    const seen: Record<string, string[]> = { stdout: [], stderr: [], hooks: [], errors: [], journal: [], results: [], pages: [], notifications: [], state: [] };
    const hooks: ClientHooks = {
      onRequest: (e) => seen.hooks!.push(JSON.stringify(e), inspect(e, { depth: 10 })),
      onResponse: (e) => seen.hooks!.push(JSON.stringify(e), inspect(e, { depth: 10 })),
      onError: (e) => seen.hooks!.push(inspect(e, { depth: 10 }), JSON.stringify(e)),
    };

    // 1. The whole demo, its notifications going to a receiver, its client logging through hooks.
    const demoIo = capturedIo();
    expect(await runDemo(demoIo.io, { sandbox, orders: 120, notifyUrl: receiverUrl, hooks })).toBe(true);
    seen.stdout!.push(demoIo.out());
    seen.stderr!.push(demoIo.err());

    // 2. A CLI batch over orders paid with the test card and the demo's CVV.
    const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
    const client = createClient({
      baseUrl: sandbox.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      signer,
      verifier: signer,
      hooks,
    });
    const card = { currency: 'USD', card: TEST_CARDS.approved, expiration_month: '12', expiration_year: '2030', security_code: CVV, notify_url: receiverUrl };
    const dir = mkdtempSync(join(tmpdir(), 'gw-leaks-'));
    await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 60, { prefix: 'LEAK', amount: '7.00', card, client });
    const batchIo = capturedIo({
      cwd: dir,
      env: {
        GW_BASE_URL: sandbox.url,
        GW_MERCHANT_ID: SANDBOX_DEFAULT_MERCHANT.merchantId,
        GW_ACCOUNT_ID: SANDBOX_DEFAULT_MERCHANT.accountId,
        GW_SECRET: SANDBOX_DEFAULT_SECRET,
      },
    });
    expect(await runCli(['batch', 'capture', 'orders.csv', '--journal', 'orders.journal.jsonl', '--reconcile', 'sandbox'], batchIo.io, batchIo.signals)).toBe(
      0,
    );
    seen.stdout!.push(batchIo.out());
    seen.stderr!.push(batchIo.err());
    seen.journal!.push(readFileSync(join(dir, 'orders.journal.jsonl'), 'utf8'));
    seen.results!.push(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8'));

    // 3. Refusals that carry card data in their request: invalid input, a wrong secret, a declined card, on the CLI too.
    const wrong = createHmacSha256Signer({ secret: 'not-the-secret' });
    const looseClient = createClient({
      baseUrl: sandbox.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      signer,
      verifier: signer,
      hooks,
      unknownFields: 'send',
    });
    const wrongClient = createClient({
      baseUrl: sandbox.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      signer: wrong,
      verifier: wrong,
      hooks,
    });
    for (const attempt of [
      () => client.authoriseCard({ ...card, order_no: 'LEAK-BAD', amount: '1.234', currency: 'usd' }),
      () => wrongClient.authoriseCard({ ...card, order_no: `LEAK-WRONG-${process.pid}`, amount: '2.00' }),
      // Card data on an operation that does not carry it (from JavaScript, or cast): refused before sending, whatever
      // the unknown-field option says.
      () => client.checkout({ ...card, order_no: `LEAK-CHECKOUT-${process.pid}`, amount: '4.00' } as never),
      () => looseClient.checkout({ ...card, order_no: `LEAK-CHECKOUT-LOOSE-${process.pid}`, amount: '4.00' } as never),
    ]) {
      const error = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).not.toBeNull();
      seen.errors!.push(String((error as Error).message), JSON.stringify(error), inspect(error, { depth: 10 }), (error as Error).stack ?? '');
    }
    for (const record of [
      { ...card, order_no: 'LEAK-CLI-BAD', amount: '9.999' },
      { ...card, card: TEST_CARDS.declined, order_no: `LEAK-CLI-DECLINED-${process.pid}`, amount: '3.00' },
    ]) {
      const callIo = capturedIo({
        stdin: JSON.stringify(record),
        env: {
          GW_BASE_URL: sandbox.url,
          GW_MERCHANT_ID: SANDBOX_DEFAULT_MERCHANT.merchantId,
          GW_ACCOUNT_ID: SANDBOX_DEFAULT_MERCHANT.accountId,
          GW_SECRET: SANDBOX_DEFAULT_SECRET,
        },
      });
      expect(await runCli(['call', 'authoriseCard', '--data', '-'], callIo.io, callIo.signals)).not.toBe(0);
      seen.stdout!.push(callIo.out());
      seen.stderr!.push(callIo.err());
    }

    // The same checkout sent past the client, correctly signed: the sandbox refuses it and echoes none of it.
    const raw = {
      merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
      account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
      ...card,
      order_no: `LEAK-RAW-${process.pid}`,
      amount: '4.00',
    };
    const signature = signer.sign(createSignableMessage({ operation: 'checkout', record: raw, body: () => JSON.stringify(raw) }));
    const answer = await fetch(`${sandbox.url}/v1/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...raw, encryption_data: signature }),
    });
    expect(answer.status).toBe(400);
    seen.pages!.push(`${answer.status}\n${await answer.text()}`);

    // 4. The sandbox's side: shopper pages, notification bodies as delivered, its state and request log.
    await sandbox.notificationsIdle(10_000);
    for (const order of sandbox.state.orders.values()) {
      // Each order's pay page at its token; an order without one (a direct card payment) gets the 404 page.
      const page = await fetch(`${sandbox.url}/sandbox/pay/${encodeURIComponent(order.payToken ?? order.transactionId)}`, { redirect: 'manual' });
      // The hosted checkout page lists the published test cards on purpose (a shopper in the sandbox picks one): that list is left out of the search.
      const html = (await page.text()).replace(/<section aria-labelledby="cards-title">[\s\S]*?<\/section>/, '');
      seen.pages!.push(`${page.status} ${page.headers.get('location') ?? ''}\n${html}`);
    }
    seen.notifications!.push(...notificationBodies);
    seen.state!.push(stateText(sandbox));

    // The search can find what it looks for, and there was something to search in each place.
    expect(leaks(JSON.stringify(card))).toEqual(['card 411111…', 'cvv next to its name', 'cvv as a whole value']);
    expect(leaks(`card=4111 1111 1111 1111&x=${SANDBOX_DEFAULT_SECRET}`)).toEqual(['card 411111…', 'signing secret']);
    expect(notificationBodies.length).toBeGreaterThan(100);
    expect(seen.pages!.length).toBeGreaterThan(100);
    for (const [place, texts] of Object.entries(seen)) if (place !== 'stderr') expect(texts.join('').length, place).toBeGreaterThan(0);

    const found = Object.entries(seen).flatMap(([place, texts]) => texts.flatMap((text, i) => leaks(text).map((what) => `${place}[${i}]: ${what}`)));
    expect(found).toEqual([]);
  }, 120_000);
});
