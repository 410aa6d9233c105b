// A gateway that says "slow down" (UNKNOWNS U50) behind gw proxy: gw spec drift shows each operation's throttles (how
// many, the Retry-After waits, the pace when throttled), in --json too, proposes no spec change from them, and exits 0
// when throttles are all the report holds: they are observations of an open point, not drift (U56).
import { createServer, request as httpRequest } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, ThrottledError } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { gw, gwStarted } from './io.ts';

const CARD = '4111111111111111';
const spec = join(import.meta.dirname, '../../../spec/v1/openapi.yaml');

/** A front that answers the first `throttled[path]` requests of a path with 429 and `Retry-After: 2`, and passes the rest to `upstream`. */
async function throttlingFront(upstream: string, throttled: Record<string, number>): Promise<{ url: string } & AsyncDisposable> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if ((throttled[path] ?? 0) > 0) {
      throttled[path]! -= 1;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' }).end('{"error":"slow down"}');
      return;
    }
    req.pipe(
      httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => (res.writeHead(answer.statusCode!, answer.headers), answer.pipe(res)),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

describe('gw proxy in front of a gateway that throttles, then gw spec drift', () => {
  it('shows the throttles per operation, in --json too, patches nothing from them, and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-proxy-'));
    await using sandbox = await startSandbox();
    await using front = await throttlingFront(sandbox.url, { '/v1/capture': 2, '/v1/retrievalTrans': 1 });
    const proxy = await gwStarted(
      ['proxy', '--upstream', front.url, '--port', '0', '--report', 'drift.json', '--secret-env', 'GW_TEST_SECRET'],
      /on (http:\/\/127\.0\.0\.1:\d+)/,
      { cwd: dir, env: { GW_TEST_SECRET: SANDBOX_DEFAULT_SECRET } },
    );
    const client = createClient({
      baseUrl: proxy.url,
      ...SANDBOX_DEFAULT_MERCHANT,
      signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }),
      retry: { attempts: 1, maxThrottleWaitMs: 0 },
    });
    const paid = await client.authoriseCard({
      order_no: 'CLI-T1',
      currency: 'USD',
      amount: '10.00',
      card: CARD,
      expiration_month: '12',
      expiration_year: '2031',
      security_code: '737',
    });
    await expect(client.query({ order_no: ['CLI-T1'] })).rejects.toBeInstanceOf(ThrottledError);
    await client.query({ order_no: ['CLI-T1'] });
    const capture = () => client.capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'CLI-T1', currency: 'USD', amount: '10.00' }] });
    for (let i = 0; i < 2; i++) await expect(capture()).rejects.toBeInstanceOf(ThrottledError);
    await capture();
    expect(await proxy.stop()).toBe(0);
    expect(proxy.c.out()).toContain('6 exchange(s), 0 kind(s) of drift, 3 throttle(s)');

    const summary = await gw(['spec', 'drift', 'drift.json'], { cwd: dir });
    expect(summary.status).toBe(0);
    expect(summary.out).toContain('no drift: every exchange matched the spec, apart from 3 throttle(s), which are not drift (below)');
    expect(summary.out).toContain('throttled (UNKNOWNS U50; not drift');
    expect(summary.out).toMatch(
      /capture: 2 throttle\(s\) \(HTTP 429 x2\), first \S+, last \S+\n {2}Retry-After: 2 s \(2 s x2\)\n {2}when throttled: (1|1-2) request\(s\) of capture in the second before, \d+(-\d+)? of all \/v1/,
    );
    expect(summary.out).toMatch(/query: 1 throttle\(s\) \(HTTP 429 x1\)/);
    const json = await gw(['spec', 'drift', 'drift.json', '--json'], { cwd: dir });
    expect(json.status).toBe(0);
    const printed = JSON.parse(json.out);
    expect(printed.drift).toEqual([]);
    expect(printed.throttles.capture).toMatchObject({
      count: 2,
      statuses: { '429': 2 },
      retryAfterMs: { count: 2, min: 2000, max: 2000, values: { '2000': 2 } },
    });
    expect(printed.throttles.query).toMatchObject({ count: 1, requestsInSecondBefore: { operation: { min: 1, max: 1 } } });
    const patched = await gw(['spec', 'drift', 'drift.json', '--patch', '--spec', spec, '--out', 'proposed.yaml'], { cwd: dir });
    expect(patched.status).toBe(0);
    expect(patched.out).toContain('proposed spec: proposed.yaml (0 change(s)');
    expect(patched.out).toContain('not patched: capture 2 throttle(s): rate limits are an open point (UNKNOWNS U50)');
    expect(await readFile(join(dir, 'proposed.yaml'), 'utf8')).toBe(await readFile(spec, 'utf8'));
    const text = (await readFile(join(dir, 'drift.json'), 'utf8')) + proxy.c.out() + proxy.c.err() + summary.out + json.out + patched.out;
    for (const secret of [CARD, '"737"', SANDBOX_DEFAULT_SECRET]) expect(text).not.toContain(secret);
  });
});
