// An upstream that trickles its answer (one byte a second: never a pause long enough for the pause time-out) is given
// up at the whole-answer deadline: HTTP 504 when nothing was answered yet, the client's connection closed once the
// answer had begun; the report counts both as deadlines, never as drift (UNKNOWNS U56).
import { createServer as createHttpServer, request, type IncomingMessage } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { until } from '@gw/test-support';
import { describe, expect, it } from 'vitest';
import { DEFAULT_UPSTREAM_DEADLINE_MS, startProxy } from '../src/index.ts';

const DEADLINE_MS = 1_500;

/** Listens on 127.0.0.1 and closes everything at dispose. */
async function listening(server: Server, sockets: Set<Socket>): Promise<{ url: string } & AsyncDisposable> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    [Symbol.asyncDispose]: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `text` one byte a second (the first at once) to `out` until `socket` closes. */
function trickle(out: { write(byte: string): unknown }, socket: Socket, text: string, timers: Set<NodeJS.Timeout>): void {
  let at = 0;
  const next = (): void => {
    if (socket.destroyed) return clearInterval(timer);
    out.write(text[at++ % text.length]!);
  };
  const timer = setInterval(next, 1_000);
  timers.add(timer);
  socket.on('close', () => clearInterval(timer));
  next();
}

/** A GET through the proxy: the status, the bytes that came, how long it took and whether it ended whole. */
function get(url: string): Promise<{ status: number; bytes: number; ms: number; whole: boolean }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res: IncomingMessage) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, bytes, ms: performance.now() - started, whole: true }));
      res.on('error', () => resolve({ status: res.statusCode!, bytes, ms: performance.now() - started, whole: false }));
      res.on('aborted', () => resolve({ status: res.statusCode!, bytes, ms: performance.now() - started, whole: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the whole-answer deadline', () => {
  it('defaults to 60 s, twice the client time limit', () => {
    expect(DEFAULT_UPSTREAM_DEADLINE_MS).toBe(60_000);
  });

  it('cuts an answer trickling one byte a second: the connection closed, the upstream socket freed, a deadline in the report', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const upstreamSockets = new Set<Socket>();
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      trickle(res, res.socket!, '{"a":"b"}', timers);
    });
    await using upstream = await listening(server, upstreamSockets);
    await using proxy = await startProxy({ upstream: upstream.url, upstreamDeadlineMs: DEADLINE_MS });
    const answer = await get(`${proxy.url}/v1/capture`);
    expect(answer.status).toBe(200);
    expect(answer.whole).toBe(false);
    expect(answer.bytes).toBeGreaterThan(0);
    expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(answer.ms).toBeLessThan(DEADLINE_MS + 1_500);
    await until(() => upstreamSockets.size === 0, 500, 'the upstream socket to be freed');
    await proxy.settled();
    expect(proxy.report.deadlines).toBe(1);
    expect(proxy.report.drift).toEqual([]);
    for (const timer of timers) clearInterval(timer);
  });

  it('answers HTTP 504 when the upstream is still sending its status line at the deadline', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const upstreamSockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      socket.on('data', () => undefined);
      trickle(socket, socket, 'HTTP/1.1 200 OK\r\n', timers);
    });
    await using upstream = await listening(server, upstreamSockets);
    await using proxy = await startProxy({ upstream: upstream.url, upstreamDeadlineMs: DEADLINE_MS });
    const answer = await get(`${proxy.url}/v1/capture`);
    expect(answer.status).toBe(504);
    expect(answer.whole).toBe(true);
    expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(answer.ms).toBeLessThan(DEADLINE_MS + 1_500);
    await until(() => upstreamSockets.size === 0, 500, 'the upstream socket to be freed');
    await proxy.settled();
    expect(proxy.report.deadlines).toBe(1);
    expect(proxy.report.drift).toEqual([]);
    for (const timer of timers) clearInterval(timer);
  });

  it('refuses a deadline that is not a positive whole number of ms', async () => {
    await expect(startProxy({ upstream: 'http://127.0.0.1:1', upstreamDeadlineMs: 0 })).rejects.toThrow(/upstreamDeadlineMs must be a whole number/);
    await expect(startProxy({ upstream: 'http://127.0.0.1:1', upstreamDeadlineMs: 1.5 })).rejects.toThrow(/upstreamDeadlineMs/);
  });
});
