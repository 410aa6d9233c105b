// An answer with a field of the wrong type (`"order_no": 0` where the spec has a string), from a real HTTP upstream:
// `answers: 'report'` (the default) accepts it and says so (the hook, or one warning), `refuse` throws an
// AnswerDriftError (for a capture: outcome unknown, never "not applied"), `accept` takes it without a word. The rule is
// @gw/types' responseProblems, the one gw proxy reports drift by (UNKNOWNS U57).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { RecordValidator } from '@gw/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnswerDriftError, ConfigError, createClient, DEFAULT_ANSWERS, type AnswerDriftEvent, type ClientOptions } from '../src/index.ts';

const CAPTURE_ANSWER = {
  merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
  account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
  return_status: '1',
  return_message: 'OK',
  capture_orders: [{ transaction_id: 'T-1', order_no: 0, currency: 'USD' }],
};
const QUERY_ANSWER = {
  merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
  account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
  return_status: '1',
  return_message: 'OK',
  orders_list: [{ order_no: 0 }],
};
const CAPTURE = { capture_orders: [{ transaction_id: 'T-1', order_no: 'ORD-1', currency: 'USD', amount: '10.00' }] };

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const body = JSON.stringify(req.url === '/v1/capture' ? CAPTURE_ANSWER : QUERY_ANSWER);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const warnings: Error[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning);
beforeAll(() => void process.on('warning', onWarning));
afterAll(() => void process.off('warning', onWarning));
afterEach(() => void (warnings.length = 0));

/** A client of the upstream; its answers are not signed, so they are not verified. */
function client(options: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl,
    ...SANDBOX_DEFAULT_MERCHANT,
    signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }),
    verifyResponses: false,
    retry: { attempts: 1 },
    ...options,
  } as ClientOptions);
}

/** Warnings are emitted on the next tick. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('answers: what the client does with an answer field of the wrong type', () => {
  it("defaults to 'report'", () => {
    expect(DEFAULT_ANSWERS).toBe('report');
  });

  it("'report' accepts the answer and calls onAnswerDrift with the problems gw proxy reports", async () => {
    const events: AnswerDriftEvent[] = [];
    const result = await client({ hooks: { onAnswerDrift: (event) => events.push(event) } }).capture(CAPTURE);
    expect(result.capture_orders![0]!.order_no).toBe(0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ operation: 'capture', attempt: 1, policy: 'report', outcome: 'accepted' });
    expect(events[0]!.problems).toEqual(new RecordValidator().responseProblems('capture', CAPTURE_ANSWER));
    expect(events[0]!.problems).toEqual([expect.objectContaining({ field: expect.stringMatching(/^capture_orders\[0\]\.order_no$/), keyword: 'type' })]);
    await tick();
    expect(warnings).toEqual([]);
  });

  it("'report' without a hook warns once per place, not on every answer", async () => {
    const gw = client();
    await gw.capture(CAPTURE);
    await gw.capture(CAPTURE);
    await gw.query({ order_no: ['ORD-1'] });
    await tick();
    const ours = warnings.filter((w) => (w as Error & { code?: string }).code === 'GW_ANSWER_DRIFT');
    expect(ours.map((w) => w.message)).toEqual([
      expect.stringMatching(/^capture: the answer differs from the spec \(capture_orders\[0\]\.order_no must be of type string\); accepted/),
      expect.stringMatching(/^query: .*orders_list\[0\]\.order_no/),
    ]);
  });

  it("'refuse' throws AnswerDriftError: a capture's outcome unknown with what to reconcile by, a query's refused", async () => {
    const events: AnswerDriftEvent[] = [];
    const gw = client({ answers: 'refuse', hooks: { onAnswerDrift: (event) => events.push(event) } });
    const captured = await gw.capture(CAPTURE).catch((error: unknown) => error);
    expect(captured).toBeInstanceOf(AnswerDriftError);
    expect(captured).toMatchObject({
      code: 'GW_ANSWER_DRIFT',
      details: { operation: 'capture', outcome: 'unknown', identifiers: { order_no: ['ORD-1'], transaction_id: ['T-1'] } },
    });
    expect((captured as Error).message).toMatch(/outcome is unknown/);
    expect((captured as Error).message).not.toMatch(/not applied/);
    const queried = await gw.query({ order_no: ['ORD-1'] }).catch((error: unknown) => error);
    expect(queried).toMatchObject({ code: 'GW_ANSWER_DRIFT', details: { operation: 'query', outcome: null } });
    expect(events.map((e) => [e.operation, e.policy, e.outcome])).toEqual([
      ['capture', 'refuse', 'unknown'],
      ['query', 'refuse', 'refused'],
    ]);
  });

  it("'accept' takes the answer without a word", async () => {
    const events: AnswerDriftEvent[] = [];
    const result = await client({ answers: 'accept', hooks: { onAnswerDrift: (event) => events.push(event) } }).capture(CAPTURE);
    expect(result.capture_orders![0]!.order_no).toBe(0);
    await tick();
    expect(events).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('refuses an answers option it does not know, and an onAnswerDrift that is not a function', () => {
    expect(() => client({ answers: 'ignore' as never })).toThrow(ConfigError);
    expect(() => client({ hooks: { onAnswerDrift: 'log' as never } })).toThrow(/hooks\.onAnswerDrift/);
  });
});
