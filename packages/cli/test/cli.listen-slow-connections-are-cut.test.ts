// gw listen bounds what a connection may hold, as the sandbox does (UNKNOWNS U51): headers sent one byte at a time, a
// body that never finishes and a body that stops are cut within its limits, an idle keep-alive connection is closed,
// connections over the limit are refused; a notification sent meanwhile still goes through.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NotificationEvent } from '@gw/notifications';
import { signedNotification } from '@gw/notifications/testing';
import { closedAfter as closed, openSocket, until } from '@gw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from '../src/index.ts';
import { capturedIo, gwStarted } from './io.ts';
import { merchantApp } from './merchant-app.ts';

const SECRET = 'listen-limits-secret';
const servers: Server[] = [];
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];
const listeners: (() => Promise<number>)[] = [];
afterEach(async () => {
  timers.splice(0).forEach((t) => clearInterval(t));
  await Promise.all(listeners.splice(0).map((stop) => stop())); // a test that failed before stopping its gw listen
  sockets.splice(0).forEach((s) => s.destroy());
  servers.splice(0).forEach((s) => s.close());
});

/** The merchant's app: the @gw/notifications receiver on real HTTP. */
async function app(): Promise<{ url: string; handled: NotificationEvent[] }> {
  const started = await merchantApp(SECRET);
  servers.push(started.server);
  return started;
}

/** Runs `gw listen` in this process with `flags`; resolves with its URL once it listens. */
async function listen(forwardTo: string, flags: string[]) {
  const started = await gwStarted(['listen', '--forward-to', forwardTo, '--port', '0', '--secret-env', 'GW_TEST_SECRET', ...flags], /receiving on (\S+),/, {
    env: { GW_TEST_SECRET: SECRET },
  });
  listeners.push(started.stop);
  return { ...started, port: Number(new URL(started.url).port) };
}

/** A raw connection to 127.0.0.1:`port`, resolved once connected; destroyed after the test. */
async function open(port: number): Promise<Socket> {
  const socket = await openSocket(port);
  sockets.push(socket);
  return socket;
}

/** Writes `text` one byte every `everyMs`, then `filler` forever, until the connection closes. */
function trickle(socket: Socket, text: string, filler: string, everyMs: number): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer);
    socket.write(sent < text.length ? text[sent++]! : filler);
  }, everyMs);
  timers.push(timer);
  socket.on('close', () => clearInterval(timer));
}

const LIMITS = ['--headers-timeout-ms', '400', '--request-timeout-ms', '800', '--body-timeout-ms', '300', '--keep-alive-timeout-ms', '300'];

describe('gw listen cuts slow connections', () => {
  it('cuts headers sent a byte at a time, a never-ending body and a stalled body within the limits; a notification still goes through', async () => {
    const target = await app();
    const listener = await listen(target.url, LIMITS);
    const since = Date.now();
    const slowHeaders = await Promise.all(Array.from({ length: 40 }, () => open(listener.port)));
    const endlessBodies = await Promise.all(Array.from({ length: 40 }, () => open(listener.port)));
    const stalledBodies = await Promise.all(Array.from({ length: 10 }, () => open(listener.port)));
    const watched = {
      slowHeaders: slowHeaders.map((s) => closed(s, since, 5000)),
      endlessBodies: endlessBodies.map((s) => closed(s, since, 5000)),
      stalledBodies: stalledBodies.map((s) => closed(s, since, 5000)),
    };
    // Headers one byte at a time, never ending.
    for (const s of slowHeaders) trickle(s, 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'a', 20);
    for (const s of endlessBodies) {
      s.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{');
      trickle(s, '', ' ', 50); // each byte well within the body time-out: only the request time-out ends it
    }
    for (const s of stalledBodies) s.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":');

    // Meanwhile a notification goes through, forwarded to the app.
    const n = await signedNotification({ event: { kind: 'payout.completed', operation: 'payout', data: { status: 'COMPLETED' } }, secret: SECRET });
    const answer = await fetch(listener.url, { method: 'POST', headers: n.headers, body: n.body });
    expect(answer.status).toBe(200);
    expect(target.handled.map((e) => e.id)).toEqual([n.event.id]);

    const headers = await Promise.all(watched.slowHeaders);
    const endless = await Promise.all(watched.endlessBodies);
    const stalled = await Promise.all(watched.stalledBodies);
    // Each cut by its own limit (not before it), within it plus node:http's check interval and some slack; none left
    // open. Seen: headers ~490 ms, endless bodies ~900 ms, stalled bodies ~340 ms.
    const cut = (list: typeof headers, atLeast: number, below: number) => {
      for (const { afterMs, received } of list) {
        expect(afterMs).not.toBeNull();
        expect(afterMs!).toBeGreaterThanOrEqual(atLeast);
        expect(afterMs!).toBeLessThan(below);
        expect(received).toMatch(/^HTTP\/1\.1 408/);
      }
    };
    cut(headers, 350, 2500); // --headers-timeout-ms 400
    cut(endless, 750, 3000); // --request-timeout-ms 800: each byte came within --body-timeout-ms
    cut(stalled, 250, 2500); // --body-timeout-ms 300
    // Nothing but the notification reached the app, and it was printed once.
    expect(target.handled).toHaveLength(1);
    expect(listener.c.out().match(/payout\.completed/g)).toHaveLength(1);

    // After the cut, the listener still serves.
    const again = await signedNotification({ event: { kind: 'payout.failed', operation: 'payout', data: { status: 'FAILED' } }, secret: SECRET });
    expect((await fetch(listener.url, { method: 'POST', headers: again.headers, body: again.body })).status).toBe(200);
    expect(target.handled).toHaveLength(2);
    expect(await listener.stop()).toBe(0);
  }, 20_000);

  it('closes an idle keep-alive connection after the keep-alive time-out', async () => {
    const target = await app();
    const listener = await listen(target.url, LIMITS);
    const socket = await open(listener.port);
    const n = await signedNotification({ event: { kind: 'payout.completed', operation: 'payout', data: { status: 'COMPLETED' } }, secret: SECRET });
    const watched = closed(socket, Date.now(), 5000);
    socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(n.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}Content-Length: ${Buffer.byteLength(n.body)}\r\n\r\n${n.body}`,
    );
    const { afterMs, received } = await watched;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(afterMs).not.toBeNull();
    expect(afterMs!).toBeLessThan(2500);
    expect(target.handled).toHaveLength(1);
    expect(await listener.stop()).toBe(0);
  }, 15_000);

  it('closes connections over --max-connections at once, and serves again below it', async () => {
    const target = await app();
    const listener = await listen(target.url, ['--max-connections', '3']);
    const held = [await open(listener.port), await open(listener.port), await open(listener.port)];
    const extra = await open(listener.port);
    expect((await closed(extra, Date.now(), 3000)).afterMs).not.toBeNull();
    for (const s of held) s.destroy();
    const n = await signedNotification({ event: { kind: 'payout.completed', operation: 'payout', data: { status: 'COMPLETED' } }, secret: SECRET });
    // Served once the listener has seen the held connections close (until then a new one is closed at once).
    const status = () =>
      fetch(listener.url, { method: 'POST', headers: n.headers, body: n.body }).then(
        (r) => r.status,
        () => null,
      );
    await until(async () => (await status()) === 200, 3000, 'gw listen to serve again below --max-connections');
    expect(await listener.stop()).toBe(0);
  }, 15_000);

  it("uses the sandbox's limits by default, says them, and lists the flags with their defaults in its help", async () => {
    const target = await app();
    const listener = await listen(target.url, []);
    expect(listener.c.out()).toContain(
      'cuts slow connections: headers 10000 ms, request 30000 ms, body pause 10000 ms, idle keep-alive 5000 ms; at most 256 connections',
    );
    expect(await listener.stop()).toBe(0);
    const help = capturedIo();
    expect(await runCli(['listen', '--help'], help.io, help.signals)).toBe(0);
    for (const text of [
      '--headers-timeout-ms <ms>',
      '(default 10000)',
      '--request-timeout-ms <ms>',
      '(default 30000)',
      '--body-timeout-ms <ms>',
      '--keep-alive-timeout-ms <ms>',
      '(default 5000)',
      '--max-connections <n>',
      '(default 256)',
    ]) {
      expect(help.out().replace(/\s+/g, ' ')).toContain(text);
    }
  });

  it('refuses bad limits, every one named, with exit 2', async () => {
    const c = capturedIo({ env: { GW_TEST_SECRET: SECRET } });
    const status = await runCli(
      [
        'listen',
        '--forward-to',
        'http://127.0.0.1:9/',
        '--port',
        '0',
        '--secret-env',
        'GW_TEST_SECRET',
        '--headers-timeout-ms',
        '0',
        '--body-timeout-ms',
        'soon',
        '--max-connections',
        '1.5',
        '--tolerance-seconds',
        '-5',
      ],
      c.io,
      c.signals,
    );
    expect(status).toBe(EXIT_CODES.usage);
    for (const flag of [
      '--headers-timeout-ms "0"',
      '--body-timeout-ms "soon"',
      '--max-connections "1.5"',
      '--tolerance-seconds must be a positive number of seconds, not -5',
    ])
      expect(c.err()).toContain(flag);
    expect(c.err()).toMatch(/4 bad flag/);
    expect(c.err() + c.out()).not.toContain(SECRET);
  });
});
