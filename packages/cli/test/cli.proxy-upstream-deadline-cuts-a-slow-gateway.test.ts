// gw proxy --upstream-deadline-ms: a gateway that trickles its answer (one byte a second) is given up at the deadline
// with HTTP 504, counted as cut at the deadline, never as drift; a bad value is refused with exit 2.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { gw, gwStarted } from './io.ts';

describe('gw proxy --upstream-deadline-ms', () => {
  it('answers 504 once a trickling gateway passes the deadline and counts it on stop, not as drift', async () => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => undefined);
      socket.write('H');
      const timer = setInterval(() => socket.write('T'), 1_000);
      socket.on('close', () => (clearInterval(timer), sockets.delete(socket)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const proxy = await gwStarted(['proxy', '--upstream', upstream, '--port', '0', '--upstream-deadline-ms', '1000'], /on (http:\/\/127\.0\.0\.1:\d+)/);
      const started = performance.now();
      const answer = await fetch(`${proxy.url}/v1/capture`, { method: 'POST', body: '{}' });
      expect(answer.status).toBe(504);
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(await proxy.stop()).toBe(0);
      expect(proxy.c.out()).toContain('0 kind(s) of drift, 0 throttle(s), 1 cut at the deadline');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a deadline that is not a whole number of ms from 1, exit 2', async () => {
    const run = await gw(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0', '--upstream-deadline-ms', 'soon']);
    expect(run.status).toBe(2);
    expect(run.err).toContain('--upstream-deadline-ms "soon" must be a whole number from 1');
  });
});
