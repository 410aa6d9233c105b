// Control API helpers: JSON over real HTTP to a real sandbox, and a notify_url receiver on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../src/index.ts';

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
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

/** A notify_url endpoint answering the given statuses in turn (then 200), keeping every body it received. */
export async function receiver(statuses: number[] = []): Promise<{ url: string; bodies: string[]; server: Server; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => new Promise<void>((r) => server.close(() => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, bodies, server, close };
}

/** Waits until `check` is true (polling every 10 ms), or fails after `ms`. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
