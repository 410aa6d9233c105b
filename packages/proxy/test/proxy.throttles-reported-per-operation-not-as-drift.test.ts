// A gateway that says "slow down" (UNKNOWNS U50), behind gw proxy: each operation's throttles (429, or 503 with a
// Retry-After) are counted with the waits they asked for and the pace the traffic ran at, as observations, not drift
// (U56); a 503 without Retry-After is still status drift.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThrottledError } from '@gw/client';
import { SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { checkHar, startProxy, type DriftReport } from '../src/index.ts';
import { CARD, clientAt, CVV, scriptedFront, signer } from './support.ts';

const twoSeconds = { status: 429, retryAfter: () => '2' };

describe('throttles through gw proxy', () => {
  it('are counted per operation with their Retry-After waits and pace, not as drift; a 503 without Retry-After is drift', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-proxy-'));
    const reportFile = join(dir, 'drift.json');
    await using sandbox = await startSandbox();
    await using front = await scriptedFront(sandbox.url, {
      '/v1/capture': [
        twoSeconds,
        twoSeconds,
        { status: 429, retryAfter: () => new Date(Date.now() + 5_000).toUTCString() },
        { status: 503, retryAfter: () => '2' },
        { status: 503 },
      ],
      '/v1/retrievalTrans': [twoSeconds, twoSeconds],
    });
    await using proxy = await startProxy({ upstream: front.url, verifier: signer, reportFile });
    // No wait is within the budget: every throttle reaches the test as a ThrottledError, and nothing is sent twice.
    const client = clientAt(proxy.url, { retry: { attempts: 1, maxThrottleWaitMs: 0 } });
    const paid = await client.authoriseCard({
      order_no: 'THR-1',
      currency: 'USD',
      amount: '40.00',
      card: CARD,
      expiration_month: '12',
      expiration_year: '2031',
      security_code: CVV,
    });
    const capture = () => client.capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'THR-1', currency: 'USD', amount: '40.00' }] });
    for (let i = 0; i < 4; i++) await expect(capture()).rejects.toBeInstanceOf(ThrottledError);
    await expect(capture()).rejects.toMatchObject({ name: 'HttpError' });
    // Queried before it is captured: the sandbox's own captured state (3001, U28) would be new-value drift.
    for (let i = 0; i < 2; i++) await expect(client.query({ order_no: ['THR-1'] })).rejects.toBeInstanceOf(ThrottledError);
    await expect(client.query({ order_no: ['THR-1'] })).resolves.toMatchObject({ return_status: '1' });
    await expect(capture()).resolves.toMatchObject({ return_status: '1' });
    await proxy.settled();

    const text = await readFile(reportFile, 'utf8');
    for (const secret of [CARD, `"${CVV}"`, SANDBOX_DEFAULT_SECRET]) expect(text, secret).not.toContain(secret);
    const report = JSON.parse(text) as DriftReport;
    expect(report.drift.map(({ operation, kind, count, example }) => ({ operation, kind, count, example }))).toEqual([
      { operation: 'capture', kind: 'status', count: 1, example: '503' },
    ]);
    const captured = report.observations.capture!;
    expect(captured.statuses).toEqual({ '429': 3, '503': 2, '200': 1 });
    const throttles = captured.throttles!;
    expect(throttles).toMatchObject({ count: 4, statuses: { '429': 3, '503': 1 } });
    expect(throttles.retryAfterMs).toMatchObject({ count: 4, min: 2000, absent: 0, unreadable: 0 });
    // The HTTP date has whole seconds: 4 to 5 s from when its answer came.
    expect(throttles.retryAfterMs.max).toBeGreaterThan(3_000);
    expect(throttles.retryAfterMs.max).toBeLessThanOrEqual(5_000);
    expect(throttles.retryAfterMs.values).toMatchObject({ '2000': 3 });
    expect(Object.values(throttles.retryAfterMs.values).reduce((a, b) => a + b)).toBe(4);
    expect(Date.parse(throttles.firstSeen)).toBeLessThanOrEqual(Date.parse(throttles.lastSeen));
    // The first capture came alone; later ones may share its second (how many depends on the machine's speed).
    const pace = throttles.requestsInSecondBefore;
    expect(pace.operation.min).toBe(1);
    expect(pace.operation.max).toBeGreaterThanOrEqual(1);
    expect(pace.operation.max).toBeLessThanOrEqual(4);
    expect(pace.all.min).toBeGreaterThanOrEqual(1);
    expect(pace.all.max).toBeLessThanOrEqual(5);
    expect(report.observations.query!.throttles).toMatchObject({
      count: 2,
      statuses: { '429': 2 },
      retryAfterMs: { count: 2, min: 2000, max: 2000, values: { '2000': 2 } },
    });
    expect(report.observations.authoriseCard!.throttles).toBeUndefined();
  });

  it('in a recording, are timed by it: the pace from the recorded starts, a Retry-After date from when the answer came', async () => {
    const t0 = Date.parse('2026-03-04T05:06:07.000Z');
    const entry = (path: string, at: number, status: number, headers: Record<string, string>, body: string, time = 20) => ({
      startedDateTime: new Date(t0 + at).toISOString(),
      time,
      request: {
        method: 'POST',
        url: `https://gateway.example${path}`,
        headers: [],
        postData: { mimeType: body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded', text: body },
      },
      response: {
        status,
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        content: { size: 2, mimeType: 'application/json', text: '{}' },
      },
    });
    const order = JSON.stringify({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] });
    const har = {
      log: {
        entries: [
          entry('/v1/capture', 0, 429, { 'Retry-After': '1' }, order),
          entry('/v1/capture', 200, 429, { 'Retry-After': '1' }, order),
          entry('/v1/retrievalTrans', 300, 429, {}, 'order_no=O1'),
          entry('/v1/capture', 400, 429, { 'Retry-After': 'soon' }, order),
          // Answered 500 ms after it started, at t0 + 2 s: a date of t0 + 5 s is a wait of 3 s.
          entry('/v1/capture', 1_500, 503, { 'Retry-After': new Date(t0 + 5_000).toUTCString() }, order, 500),
          entry('/v1/capture', 1_600, 503, {}, order),
        ],
      },
    };
    const { report } = await checkHar(har);
    expect(report.drift.map(({ operation, kind, count }) => ({ operation, kind, count }))).toEqual([{ operation: 'capture', kind: 'status', count: 1 }]);
    expect(report.observations.capture!.throttles).toEqual({
      count: 4,
      statuses: { '429': 3, '503': 1 },
      firstSeen: '2026-03-04T05:06:07.000Z',
      lastSeen: '2026-03-04T05:06:08.500Z',
      retryAfterMs: { count: 3, min: 1000, max: 3000, values: { '1000': 2, '3000': 1 }, absent: 0, unreadable: 1 },
      // Starts at 0, 200, 400 and 1500 ms: 1, 2, 3 and 1 capture(s) in the second up to each; 4 of all at 400 (a query at 300).
      requestsInSecondBefore: { operation: { min: 1, max: 3 }, all: { min: 1, max: 4 } },
    });
    expect(report.observations.query!.throttles).toMatchObject({
      count: 1,
      retryAfterMs: { count: 0, min: null, max: null, absent: 1 },
      requestsInSecondBefore: { operation: { min: 1, max: 1 }, all: { min: 3, max: 3 } },
    });
  });
});
