// A gateway that says "slow down" (UNKNOWNS U50): HTTP 429, or 503 with a Retry-After. In front of the real sandbox, a
// front answers the first requests of a path with a throttle and forwards the rest, so each test sees what the client
// does with it: a query waits what the gateway asked (in seconds, or until an HTTP date) and goes again, not before;
// a wait past the budget, and any money-moving request, is a ThrottledError saying what the throttle means.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_ERROR_CODES, HttpError, retryAfterMs, ThrottledError } from '../src/index.ts';
import { authorisedOrder, sandboxClient } from './support.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

/** A front that throttles the next `times` requests with `status` and `headers`, then forwards to the sandbox; it logs when each came. */
async function throttlingFront(
  times: number,
  status: number,
  headers: () => Record<string, string>,
): Promise<{ url: string; seen: { at: number; throttled: boolean }[]; server: Server }> {
  const seen: { at: number; throttled: boolean }[] = [];
  let left = times;
  const server = createServer((req, res) => {
    const throttled = left-- > 0;
    seen.push({ at: performance.now(), throttled });
    if (throttled) {
      req.resume();
      res.writeHead(status, { 'content-type': 'application/json', ...headers() }).end('{"error":"slow down"}');
      return;
    }
    const target = new URL(sandbox.url);
    const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('a throttled query', () => {
  it('waits the Retry-After seconds before going again, not less, and is answered', async () => {
    const front = await throttlingFront(1, 429, () => ({ 'retry-after': '1' }));
    await using client = sandboxClient(front);
    await expect(client.query({ order_no: ['T-1'] })).resolves.toMatchObject({ return_status: '1' });
    expect(front.seen.map((s) => s.throttled)).toEqual([true, false]);
    expect(front.seen[1]!.at - front.seen[0]!.at).toBeGreaterThanOrEqual(995);
    front.server.close();
  });

  it('waits until a Retry-After date; a 503 with Retry-After is a throttle too', async () => {
    const front = await throttlingFront(1, 503, () => ({ 'retry-after': new Date(Date.now() + 2_000).toUTCString() }));
    await using client = sandboxClient(front);
    await expect(client.query({ order_no: ['T-2'] })).resolves.toMatchObject({ return_status: '1' });
    // A date has whole seconds: the wait is between 1 and 2 s.
    const waited = front.seen[1]!.at - front.seen[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(995);
    expect(waited).toBeLessThan(2_500);
    front.server.close();
  });

  it('asked to wait longer than retry.maxThrottleWaitMs: a ThrottledError at once, not tried again', async () => {
    const front = await throttlingFront(1, 429, () => ({ 'retry-after': '60' }));
    await using client = sandboxClient(front, { retry: { maxThrottleWaitMs: 5_000 } });
    const error = await client.query({ order_no: ['T-3'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThrottledError);
    expect(error).toMatchObject({ code: GW_ERROR_CODES.throttled, retryAfterMs: 60_000, details: { status: 429, outcome: null, waitedMs: 0 } });
    expect(front.seen).toHaveLength(1);
    front.server.close();
  });

  it('a 503 without Retry-After stays an HttpError (tried again as an unavailable gateway)', async () => {
    const front = await throttlingFront(5, 503, () => ({}));
    await using client = sandboxClient(front, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    await expect(client.query({ order_no: ['T-4'] })).rejects.toBeInstanceOf(HttpError);
    expect(front.seen).toHaveLength(2);
    front.server.close();
  });
});

describe('a throttled money-moving request', () => {
  it('is never sent again by the client; by default it was not applied (HTTP 429), with `throttled: "unknown"` it is to be reconciled', async () => {
    const order = await authorisedOrder(sandboxClient(sandbox));
    for (const [throttled, outcome] of [
      [undefined, 'not-applied'],
      ['unknown', 'unknown'],
    ] as const) {
      const front = await throttlingFront(1, 429, () => ({ 'retry-after': '2' }));
      await using client = sandboxClient(front, throttled ? { throttled } : {});
      const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ThrottledError);
      expect(error).toMatchObject({ retryAfterMs: 2_000, details: { status: 429, outcome, identifiers: { transaction_id: [order.transaction_id] } } });
      expect((error as Error).message).toMatch(outcome === 'not-applied' ? /not applied: send it again once the wait is over/ : /outcome is unknown/);
      expect(front.seen).toHaveLength(1);
      front.server.close();
    }
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBeUndefined();
  });
});

describe('Retry-After', () => {
  it('is read as seconds or an HTTP date; anything else is no wait said', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 09:59:00 GMT', now)).toBe(0);
    for (const bad of ['-1', '1.5', 'soon', '', '12345678901234567890x']) expect(retryAfterMs(bad, now), bad).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});
