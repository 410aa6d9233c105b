// The card-number cases of issue 37, item 1, through a real proxy to a real upstream (node:http on 127.0.0.1).
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathShape, startProxy } from '../src/index.ts';
import { maskCardNumbers } from '../src/redact/card-numbers.ts';

/** An upstream that answers every request with `answer` as JSON. */
async function jsonUpstream(answer: () => unknown): Promise<{ url: string } & AsyncDisposable> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

async function post(url: string, body: string, contentType = 'application/json'): Promise<void> {
  await (await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body })).text();
}

describe('a drift report holds no card number', () => {
  it('masks Luhn-valid digit runs of 12 to 19 digits, with spaces or dashes between, and leaves other numbers', () => {
    expect(maskCardNumbers('card 4111111111111111 here')).toBe('card [redacted] here');
    expect(maskCardNumbers('4111 1111 1111 1111')).toBe('[redacted]');
    expect(maskCardNumbers('x4111-1111-1111-1111y')).toBe('x[redacted]y');
    expect(maskCardNumbers('/v1/cards/4111%201111%201111%201111')).toBe('/v1/cards/[redacted]');
    expect(maskCardNumbers('order 12345678901 of 40.00, id 123456789012')).toBe('order 12345678901 of 40.00, id 123456789012');
    expect(maskCardNumbers('amount 1234, order 20260304')).toBe('amount 1234, order 20260304');
  });

  it('shows a path the spec does not know by its shape', () => {
    expect(pathShape('/v1/cards/4111111111111111')).toBe('/v1/cards/{digits}');
    expect(pathShape('/v1/cards/4111%201111%201111%201111/x')).toBe('/v1/cards/{digits}/x');
    expect(pathShape('/v1/note/card4111-1111-1111-1111')).toBe('/v1/note/{text}');
  });

  it("the issue's cases: an unknown card path, a member named by a spaced card number, a cvv value", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-proxy-redact-'));
    await using upstream = await jsonUpstream(() => ({ result: 'ok' }));
    const reportFile = join(dir, 'drift.json');
    await using proxy = await startProxy({ upstream: upstream.url, reportFile });
    await (await fetch(`${proxy.url}/v1/cards/4111111111111111`)).text();
    await (await fetch(`${proxy.url}/v1/cards/4111-1111-1111-1111?pan=4111111111111111`)).text();
    await post(
      `${proxy.url}/v1/capture`,
      JSON.stringify({ capture_orders: [{ transaction_id: 'T1', order_no: 'A-1', currency: 'USD', amount: '1.00', '4111 1111 1111 1111': 'x', cvv: '123' }] }),
    );
    await proxy.settled();
    const text = await readFile(reportFile, 'utf8');
    for (const secret of ['4111111111111111', '4111 1111 1111 1111', '4111-1111-1111-1111', '"123"']) expect(text).not.toContain(secret);
    const report = JSON.parse(text) as {
      drift: { operation: string; kind: string; path: string; message: string; example: string }[];
      observations: Record<string, { fields: object }>;
    };
    expect(report.drift).toContainEqual(
      expect.objectContaining({ operation: '/v1/cards/{digits}', kind: 'unknown-path', message: 'no operation of the spec at /v1/cards/{digits}' }),
    );
    expect(report.drift.filter((e) => e.kind === 'unknown-path')).toHaveLength(1);
    expect(report.drift).toContainEqual(
      expect.objectContaining({ operation: 'capture', side: 'request', kind: 'unknown-field', path: 'capture_orders[].[redacted]' }),
    );
    expect(report.drift).toContainEqual(
      expect.objectContaining({ operation: 'capture', side: 'request', kind: 'unknown-field', path: 'capture_orders[].cvv', example: '999' }),
    );
  });
});
