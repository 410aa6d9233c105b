// Control API helpers: JSON over real HTTP to a real sandbox, and a notify_url receiver on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructEventAsync, type NotificationEvent } from '@gw/notifications';
import type { Sandbox } from '../src/index.ts';
import { jsonOf, signer } from './harness.ts';

/** What the control API answered. */
export interface ApiReply {
  status: number;
  text: string;
  json: any;
}

/** Calls the control API: `api(sandbox, 'GET', 'orders?state=captured')`. */
export async function api(sandbox: Sandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiReply> {
  const init: RequestInit = { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${sandbox.url}/sandbox/api/${path}`, init);
  const text = await response.text();
  return { status: response.status, text, json: jsonOf(text) };
}

/** A notify_url endpoint on 127.0.0.1 and what it received. */
export interface Receiver {
  url: string;
  /** Every delivery's body, exactly as received. */
  bodies: string[];
  /** Each delivery that verified with @gw/notifications (the sandbox's secret), in arrival order. */
  events: NotificationEvent[];
  /** Why each delivery that did not verify was refused (answered 400). */
  refused: unknown[];
  server: Server;
  close(): Promise<void>;
}

/** A notify_url endpoint that verifies each delivery, answering the given statuses in turn (then 200), 400 when it does not verify. */
export async function receiver(statuses: number[] = []): Promise<Receiver> {
  const bodies: string[] = [];
  const events: NotificationEvent[] = [];
  const refused: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void constructEventAsync({ body, headers: req.headers }, { verifiers: [signer] }).then(
        (event) => {
          bodies.push(body.toString('utf8'));
          events.push(event);
          res.writeHead(statuses.shift() ?? 200).end();
        },
        (error: unknown) => {
          bodies.push(body.toString('utf8'));
          refused.push(error);
          res.writeHead(400).end();
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => new Promise<void>((r) => server.close(() => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, bodies, events, refused, server, close };
}

export { until } from '@gw/test-support';
