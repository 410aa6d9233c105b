import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closedAfter as closed, openSocket, until } from '@gw/test-support';
import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, merchant, send, signed } from './harness.ts';

/** Opens a raw connection to the sandbox and resolves once connected. */
const open = (sandbox: Sandbox) => openSocket(sandbox.port);

describe('the sandbox bounds what a connection can hold (UNKNOWNS U51)', () => {
  it('closes a connection whose headers never finish within the headers time-out', async () => {
    await using sandbox = await startSandbox({ headersTimeoutMs: 400, requestTimeoutMs: 800 });
    const socket = await open(sandbox);
    const since = Date.now();
    socket.write('POST /v1/capture HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const { afterMs } = await closed(socket, since, 5000);
    expect(afterMs).not.toBeNull();
    expect(afterMs!).toBeLessThan(2500);
  });

  it('answers 408 and closes a connection whose body stops arriving', async () => {
    await using sandbox = await startSandbox({ bodyTimeoutMs: 300 });
    const socket = await open(sandbox);
    const since = Date.now();
    socket.write('POST /v1/capture HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"merchant_id":');
    const { afterMs, received } = await closed(socket, since, 5000);
    expect(afterMs).not.toBeNull();
    expect(afterMs!).toBeLessThan(2500);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(received).toContain('"return_status":"0"');
    expect(sandbox.state.internalErrors).toEqual([]);
  });

  it('reads a body that arrives in pieces, each within the body time-out, though the whole takes longer', async () => {
    await using sandbox = await startSandbox({ bodyTimeoutMs: 300 });
    const record = await signed('capture', {
      ...merchant,
      capture_orders: [{ transaction_id: 'T-PIECES', order_no: 'PIECES-1', currency: 'USD', amount: '10.00' }],
    });
    const body = JSON.stringify(record);
    const socket = await open(sandbox);
    const since = Date.now();
    const answer = closed(socket, since, 5000);
    socket.write(
      `POST /v1/capture HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    const pieces = 4;
    const size = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces; i++) {
      await new Promise((r) => setTimeout(r, 200)); // the pieces' pace is the case under test: each within the body time-out
      socket.write(body.slice(i * size, (i + 1) * size));
    }
    const { afterMs, received } = await answer;
    expect(afterMs!).toBeGreaterThanOrEqual(800);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toContain('"capture_status":"0"');
    expect(received).toContain('E201:order not found');
  });

  it('closes connections over the connection limit at once, and serves again when below it', async () => {
    await using sandbox = await startSandbox({ maxConnections: 2 });
    const held = [await open(sandbox), await open(sandbox)];
    const extra = await open(sandbox);
    const { afterMs } = await closed(extra, Date.now(), 3000);
    expect(afterMs).not.toBeNull();
    for (const socket of held) socket.destroy();
    // Served once the sandbox has seen the held connections close (until then a new one is closed at once).
    const status = () =>
      send(sandbox, 'capture', { capture_orders: [{ transaction_id: 'T-NONE', currency: 'USD', amount: '1.00' }] }).then(
        (r) => r.status,
        () => null,
      );
    await until(async () => (await status()) === 200, 3000, 'the sandbox to serve again below maxConnections');
  });

  it('reads a few KiB of a 400 MB notification answer, not all of it: memory stays flat', async () => {
    const total = 400 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let finished = false;
    const endpoint: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total) });
      let sent = 0;
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (finished = true));
      pump();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      await using sandbox = await startSandbox({ notify: { attempts: 1, timeoutMs: 60_000 } });
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const notify_url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/notify`;
      expect((await send(sandbox, 'authoriseCard', cardPayment({ notify_url }))).status).toBe(200);
      await sandbox.notificationsIdle(60_000);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(sandbox.state.notifications[0], JSON.stringify(sandbox.state.notifications)).toMatchObject({ delivered: true });
      // The endpoint sees its response closed (the sandbox does not hold the connection open).
      for (let i = 0; i < 100 && !finished; i++) await new Promise((r) => setTimeout(r, 50));
      expect(finished).toBe(true);
      expect((peak - before) / 1024 / 1024).toBeLessThan(64);
    } finally {
      endpoint.closeAllConnections();
      await new Promise((resolve) => endpoint.close(resolve));
    }
  }, 90_000);
});
