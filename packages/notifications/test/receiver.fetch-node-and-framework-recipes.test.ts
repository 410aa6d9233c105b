import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotificationReceiver, type NotificationEvent } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, deliver, listen, SECRET } from './helpers.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

function receiverRecording() {
  const handled: NotificationEvent[] = [];
  const receiver = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret: SECRET })], onEvent: (e) => void handled.push(e) });
  return { receiver, handled };
}

describe('the receiver behind node:http, WHATWG Request and express / fastify', () => {
  it('WHATWG handler (Next.js route handlers, Hono, Bun, Deno) served over real HTTP', async () => {
    const { receiver, handled } = receiverRecording();
    // A minimal fetch-style server: node:http request -> Request -> receiver.fetch -> Response.
    const { url, server } = await listen((req, res) => {
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: Readable.toWeb(req) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      // A failure here would leave the request unanswered: the test's delivery then fails on its own.
      void receiver
        .fetch(request)
        .then(async (response) => res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? '' }).end(await response.text()));
    });
    servers.push(server);
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect(await deliver(url, n.body, n.headers)).toEqual({ status: 200, json: { outcome: 'processed', id: n.event.id } });
    expect((await deliver(url, n.body.slice(0, 30), n.headers)).json.reason).toBe('truncated');
    expect(handled).toHaveLength(1);
  });

  it('express: express.raw({ type: "*/*" }) then receiver.node, as the README recipe does', async () => {
    const express = createRequire(import.meta.url)('express');
    const { receiver, handled } = receiverRecording();
    const app = express();
    app.use('/other', express.json()); // a JSON parser elsewhere in the app does not touch the notification route
    app.post('/notify', express.raw({ type: '*/*', limit: '1mb' }), (req: any, res: any) => void receiver.node(req, res));
    const server: Server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('processed');
    expect((await deliver(url, n.body.replace('100.00', '100.01'), n.headers)).json.reason).toBe('signature-mismatch');
    expect(handled.map((e) => e.id)).toEqual([n.event.id]);
  });

  it('express with express.json() before the receiver is refused plainly: the signed bytes are gone', async () => {
    const express = createRequire(import.meta.url)('express');
    const { receiver, handled } = receiverRecording();
    const app = express();
    app.post('/notify', express.json(), (req: any, res: any) => void receiver.node(req, res));
    const server: Server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const answer = await deliver(`http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, n.body, n.headers);
    expect(answer.json).toMatchObject({ reason: 'malformed', message: expect.stringContaining('express.raw') });
    expect(handled).toEqual([]);
  });

  it('fastify recipe contract: a Buffer body (parseAs: "buffer") and node-style headers go to receiver.handle', async () => {
    const { receiver, handled } = receiverRecording();
    // What the README's fastify recipe does inside its route: reply.code(answer.status).send(answer.body).
    const { url, server } = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void receiver
          .handle({ body: Buffer.concat(chunks), headers: req.headers }, undefined)
          .then((answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
      });
    });
    servers.push(server);
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('processed');
    expect(handled).toHaveLength(1);
  });

  it('WHATWG handler refuses a body over maxBodyBytes (400 too-large) without reading it all, with or without Content-Length', async () => {
    const receiver = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret: SECRET })], maxBodyBytes: 1000, onEvent: () => {} });
    const declared = await receiver.fetch(new Request('http://x/', { method: 'POST', headers: { 'content-length': '50000' }, body: 'x'.repeat(50_000) }));
    expect(declared.status).toBe(400);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => void ((pulled += 1), c.enqueue(new Uint8Array(512))) });
    const streamed = await receiver.fetch(new Request('http://x/', { method: 'POST', body: endless, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(400);
    expect(await streamed.json()).toMatchObject({ reason: 'too-large' });
    expect(pulled).toBeLessThan(10);
  });

  it('node:http handler refuses a body over maxBodyBytes with 400 too-large and still answers', async () => {
    const receiver = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret: SECRET })], maxBodyBytes: 1000, onEvent: () => {} });
    const server = createServer((req, res) => void receiver.node(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const answer = await deliver(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 'x'.repeat(50_000), { 'gw-signature': 't=1,v1=aa' });
    expect(answer).toMatchObject({ status: 400, json: { reason: 'too-large' } });
  });
});
