import { inspect } from 'node:util';
import { startSandbox } from '@gw/sandbox';
import { encodeRespon } from '@gw/xml-codec';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  ConnectionError,
  createClient,
  DecodeError,
  GatewayError,
  HttpError,
  OutcomeUnknownError,
  SignatureError,
  TimeoutError,
  ValidationError,
  type ClientHooks,
  type GwClient,
} from '../src/index.ts';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { CARD, CVV, cardPayment, merchant, reply, sandboxClient, sandboxSigner, startRecordingServer } from './support.ts';

const EXPIRY_YEAR = '2031';
// A secret as a token of its own: not a piece of a longer number, a line:column or a duration.
const token = (value: string) => new RegExp(`(?<![0-9A-Za-z.:])${value}(?![0-9A-Za-z:])`);

function leaks(text: string): string[] {
  const found: string[] = [];
  if (text.includes(CARD) || /4111[ -]?1111[ -]?1111[ -]?1111/.test(text)) found.push('card number');
  if (token(CVV).test(text)) found.push('security code');
  if (token(EXPIRY_YEAR).test(text)) found.push('expiry year');
  return found;
}

function everyRendering(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true }), JSON.stringify(value) ?? ''];
  if (value instanceof Error) {
    out.push(value.message, String(value.stack), String(value));
    const json = (value as { toJSON?: () => unknown }).toJSON?.();
    if (json !== undefined) out.push(JSON.stringify(json));
  }
  return out;
}

describe('card number, security code and expiry never appear in an error or a hook payload', () => {
  it('across every error class and every hook event', async () => {
    expect(leaks(inspect(cardPayment()))).toEqual(['card number', 'security code', 'expiry year']); // the scan does see them
    const events: unknown[] = [];
    const hooks: ClientHooks = { onRequest: (e) => events.push(e), onResponse: (e) => events.push(e), onError: (e) => events.push(e) };
    const errors = new Map<string, unknown>();
    const payment = () => cardPayment({ note: 'card on file' });
    const collect = async (name: string, call: Promise<unknown>) =>
      errors.set(
        name,
        await call.then(
          () => new Error(`${name}: no error`),
          (e: unknown) => e,
        ),
      );

    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox, { hooks, retry: { attempts: 2, baseDelayMs: 1 } });
    await client.authoriseCard(payment()); // a success: request and response events
    await collect('ValidationError', client.authoriseCard({ ...payment(), currency: 'usd', expiration_month: '7' }));
    sandbox.faults.inject('/v1/authorise', 'reset-after');
    await collect('OutcomeUnknownError', client.authoriseCard(payment()));
    await using stranger = sandboxClient(sandbox, { hooks, merchantId: 'M0' });
    await collect('GatewayError', stranger.capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] }));

    // A gateway that echoes what it got, card data included, in every shape it could.
    await using echo = await startRecordingServer((request, res) => {
      const sent = JSON.parse(request.body) as Record<string, string>;
      if (request.path === '/v1/authorise' && sent.order_no?.startsWith('HTTP'))
        reply(res, 500, `failed for ${request.body} card=${sent.card}&security_code=${sent.security_code}`, 'text/plain');
      else if (sent.order_no?.startsWith('DEC'))
        reply(
          res,
          200,
          `<respon><card>${sent.card}</card><security_code>${sent.security_code}</security_code><risk_score>n/a</risk_score></respon>`,
          'application/xml',
        );
      else
        reply(
          res,
          200,
          encodeRespon({
            order_no: sent.order_no,
            card: sent.card,
            order_status: '1',
            encryption_data: 'bad',
            [`expiration_year`]: sent.expiration_year,
          } as never),
          'application/xml',
        );
    });
    await using echoing = sandboxClient(echo, { hooks });
    await collect('HttpError', echoing.authoriseCard(cardPayment({ order_no: 'HTTP-1' })));
    await collect('DecodeError', echoing.authoriseCard(cardPayment({ order_no: 'DEC-1' })));
    await collect('SignatureError', echoing.authoriseCard(cardPayment({ order_no: 'SIG-1' })));

    await using refused = sandboxClient({ url: 'http://127.0.0.1:1' }, { hooks, retry: { attempts: 1 } });
    await collect('ConnectionError', refused.authoriseCard(payment()));
    const stuck = new Agent({ connect: () => undefined });
    await using waiting = sandboxClient(sandbox, { hooks, timeoutMs: 50, transport: { dispatcher: stuck } });
    await collect('TimeoutError', waiting.authoriseCard(payment()));
    await stuck.destroy();
    await using badSigner = createClient({ baseUrl: sandbox.url, ...merchant, hooks, signer: { sign: () => '' }, verifier: sandboxSigner });
    await collect('ConfigError', badSigner.authoriseCard(payment()));

    const classes = { ValidationError, OutcomeUnknownError, GatewayError, HttpError, DecodeError, SignatureError, ConnectionError, TimeoutError, ConfigError };
    for (const [name, type] of Object.entries(classes)) expect(errors.get(name), name).toBeInstanceOf(type);
    // The echoes did carry the card: the errors had every chance to leak it.
    expect((errors.get('HttpError') as HttpError).details.bodyExcerpt).toContain('[redacted]');
    expect((errors.get('SignatureError') as SignatureError).response).toMatchObject({ card: '[redacted]', expiration_year: '[redacted]' });

    for (const [name, error] of errors) for (const text of everyRendering(error)) expect(leaks(text), `${name}: ${text.slice(0, 300)}`).toEqual([]);
    expect(events.length).toBeGreaterThan(15);
    for (const event of events) for (const text of everyRendering(event)) expect(leaks(text), text.slice(0, 300)).toEqual([]);
    const requests = events.filter((e): e is { record: Record<string, unknown>; attempt: number } => 'record' in (e as object) && !('status' in (e as object)));
    expect(requests[0]!.record).toMatchObject({
      card: '[redacted]',
      security_code: '[redacted]',
      expiration_month: '[redacted]',
      expiration_year: '[redacted]',
      currency: 'USD',
    });
  });

  it('a client, its signer and its options print neither card data nor the signing secret', () => {
    // A secret of its own, as text and as bytes, so that any rendering holding it (or its hex or base64) is found.
    const secret = 'gw-test-signing-secret-7f3a9c';
    const forms = [secret, Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('base64')];
    const signer = createHmacSha256Signer({ secret });
    const options = { baseUrl: 'http://127.0.0.1:1', ...merchant, signer, verifier: signer };
    const client: GwClient = createClient(options);
    const renderings = [client, signer, options].flatMap((value) => [
      ...everyRendering(value),
      String(value),
      inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    ]);
    for (const text of renderings) {
      expect(leaks(text)).toEqual([]);
      for (const form of forms) expect(text).not.toContain(form);
    }
    void client.close();
  });
});
