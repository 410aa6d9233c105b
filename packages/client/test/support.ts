// Test helpers: clients wired to a real sandbox over 127.0.0.1, and a tiny recording server for answers a sandbox never gives.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operations, type OperationName } from '@gw/types';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, expect } from 'vitest';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { orderNo } from '@gw/test-support';
import { createClient, ValidationError, type ClientOptions, type GwClient } from '../src/index.ts';

export const sandboxSigner = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
export const merchant = { merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId };

/** A client for the sandbox's default merchant, signing with the sandbox's reference signer. */
export function sandboxClient(sandbox: { url: string }, options: Partial<ClientOptions> = {}): GwClient {
  return createClient({ baseUrl: sandbox.url, ...merchant, signer: sandboxSigner, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });
}

/** The spec's example request of an operation (spec/v1/examples), without the fields the client fills, as its method takes it. */
export function exampleInput(name: OperationName): Record<string, unknown> {
  const { merchant_id, account_id, encryption_data, ...record } = JSON.parse(
    readFileSync(new URL(`../../../spec/v1/examples/${name}.request.json`, import.meta.url), 'utf8'),
  );
  (void merchant_id, void account_id, void encryption_data);
  const separator = operations[name].batch?.separator;
  if (!separator) return record;
  // A list-in-a-string selection: the client takes lists.
  return Object.fromEntries(Object.entries(record).map(([field, value]) => [field, String(value).split(separator)]));
}

/** Every client method: one per operation of the generated table. */
export const METHOD_NAMES = Object.keys(operations) as OperationName[];

export { orderNo } from '@gw/test-support';

export const CARD = '4111111111111111';
export const CVV = '737';

/** A card payment the sandbox approves. */
export function cardPayment(overrides: Record<string, unknown> = {}) {
  return {
    order_no: orderNo(),
    currency: 'USD',
    amount: '40.00',
    card: CARD,
    expiration_month: '12',
    expiration_year: '2031',
    security_code: CVV,
    ...overrides,
  };
}

/** Authorises a card payment through the client and returns the batch element that names it. */
export async function authorisedOrder(client: GwClient, amount = '40.00') {
  const payment = cardPayment({ amount });
  const respon = await client.authoriseCard(payment);
  if (respon.order_status !== '1' || !respon.transaction_id) throw new Error(`not authorised: ${respon.result_info}`);
  return { transaction_id: respon.transaction_id, order_no: payment.order_no, currency: 'USD', amount };
}

/** What a recording server saw of one request. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A node:http server on 127.0.0.1 that records every request and answers with `answer`. */
export async function startRecordingServer(answer: (request: Received, res: ServerResponse) => void) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      answer(request, res);
    });
  });
  const connections = { count: 0 };
  server.on('connection', () => (connections.count += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    /** TCP connections accepted so far. */
    connections,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A recording server in front of `sandbox`: forwards each request to it, then answers with what `answer` makes of its reply's text. */
export function startForwardingServer(sandbox: { url: string }, answer: (request: Received, text: string, res: ServerResponse) => void) {
  return startRecordingServer((request, res) => {
    void fetch(`${sandbox.url}${request.path}`, { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: request.body })
      .then((reply) => reply.text())
      .then((text) => answer(request, text, res));
  });
}

/** Answers with a status, a content type and a body. */
export function reply(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The sandbox's request log entries for one path. */
export function requestsTo(sandbox: Sandbox, path: string) {
  return sandbox.state.requests.filter((request) => request.path === path);
}

/** Starts a sandbox and a client on it before the file's tests and closes both after them; `use` receives them. */
export function withSandboxClient(use: (sandbox: Sandbox, client: GwClient) => void, options: Partial<ClientOptions> = {}): void {
  let sandbox: Sandbox | undefined;
  let client: GwClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    client = sandboxClient(sandbox, options);
    use(sandbox, client);
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.stop();
  });
}

/** Awaits `call`, expecting a ValidationError and no request reaching `sandbox` meanwhile; returns the error. */
export async function refusedBeforeSending(sandbox: Sandbox, call: Promise<unknown>): Promise<ValidationError> {
  const before = sandbox.state.requestCount;
  const error = await call.then(
    () => expect.unreachable('expected a ValidationError'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  expect(sandbox.state.requestCount).toBe(before);
  return error as ValidationError;
}

/** The client's own spans (scope `@gw/client`), those named `POST <path>` when a path is given: the sandbox names its SERVER spans the same way. */
export function clientSpans<S extends { readonly name: string; readonly instrumentationScope: { readonly name: string } }>(
  telemetry: { spans(): S[] },
  path?: string,
): S[] {
  return telemetry.spans().filter((s) => s.instrumentationScope.name === '@gw/client' && (path === undefined || s.name === `POST ${path}`));
}
