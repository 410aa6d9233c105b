// Clients that go away in the middle of their answer: each upstream request is aborted as its client's connection
// closes, so the upstream's sockets are freed within a second, not held until a time-out.
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../src/index.ts';

const CLIENTS = 300;

describe('clients that drop off mid-answer', () => {
  it(`free their upstream sockets within a second (${CLIENTS} clients)`, async () => {
    const open = new Set<Socket>();
    let connections = 0;
    // An upstream that sends the start of each answer and then nothing more, as if its end were far away.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"return_status":"1",');
    });
    server.on('connection', (socket: Socket) => {
      connections += 1;
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await using proxy = await startProxy({ upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      // Every client reads the first bytes of its answer, then its connection is destroyed.
      await Promise.all(
        Array.from(
          { length: CLIENTS },
          () =>
            new Promise<void>((resolve, reject) => {
              const req = request(`${proxy.url}/v1/capture`, { agent: false }, (res) => {
                res.once('data', () => {
                  req.destroy();
                  resolve();
                });
              });
              req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
              req.end();
            }),
        ),
      );
      expect(connections).toBe(CLIENTS);
      const dropped = performance.now();
      while (open.size > 0 && performance.now() - dropped < 1_000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(open.size).toBe(0);
      await proxy.settled();
      expect(proxy.report.drift).toEqual([]);
      expect(proxy.report.deadlines).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
