import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { HttpError, type GwClient } from '../src/index.ts';
import { authorisedOrder, requestsTo, sandboxClient, withSandboxClient } from './support.ts';

let sandbox: Sandbox;
let client: GwClient;
withSandboxClient((s, c) => {
  sandbox = s;
  client = c;
});

describe('HttpError (UNKNOWNS U49)', () => {
  it('a 5xx on a money-moving call: not retried, outcome marked unknown with the ids to reconcile', async () => {
    const order = await authorisedOrder(client);
    const before = requestsTo(sandbox, '/v1/capture').length;
    sandbox.faults.inject('/v1/capture', 'http-5xx');
    const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.code).toBe('GW_HTTP');
    expect(http.status).toBe(503);
    expect(http.outcome).toBe('unknown');
    expect(http.details.identifiers).toMatchObject({ order_no: [order.order_no], transaction_id: [order.transaction_id] });
    expect(http.details.bodyExcerpt).toContain('service unavailable');
    expect(http.message).toContain('Reconcile with client.query');
    expect(requestsTo(sandbox, '/v1/capture').length - before).toBe(1);
  });

  it('a 5xx on query is retried (safe), then answered', async () => {
    const before = requestsTo(sandbox, '/v1/retrievalTrans').length;
    sandbox.faults.inject('/v1/retrievalTrans', 'http-5xx', 2);
    const result = await client.query({ order_no: ['NOPE'] });
    expect(result.return_status).toBe('1');
    expect(
      requestsTo(sandbox, '/v1/retrievalTrans')
        .slice(before)
        .map((r) => r.outcome),
    ).toEqual(['http-5xx', 'http-5xx', 'ok']);
  });

  it('a query 5xx beyond the attempts is an HttpError with no outcome to reconcile', async () => {
    sandbox.faults.inject('/v1/retrievalTrans', 'http-5xx', 3);
    const error = await client.query({ order_no: ['NOPE'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).outcome).toBeNull();
  });

  it('an unknown path (a base URL with a wrong prefix) is an HttpError 404', async () => {
    await using lost = sandboxClient({ url: `${sandbox.url}/gateway` });
    const error = await lost.query({ order_no: ['X'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(404);
    expect((error as HttpError).details.path).toBe('/v1/retrievalTrans');
  });

  it('a 409 from the sandbox (order number used twice) is an HttpError, the body never read as a result', async () => {
    const page = { order_no: `DUP-${process.pid}`, currency: 'USD', amount: '5.00' };
    await client.checkout(page);
    const error = await client.checkout(page).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(409);
    expect((error as HttpError).details.bodyExcerpt).toContain('1001:');
  });
});
