// The merchant's app that `gw listen` forwards to: the @gw/notifications receiver on real HTTP at 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNotificationReceiver, type NotificationEvent } from '@gw/notifications';
import { createHmacSha256Signer } from '@gw/signer-interface';

/** Starts the app, verifying with `secret`; `handled` holds each event its handler took. The caller closes `server`. */
export async function merchantApp(secret: string): Promise<{ url: string; handled: NotificationEvent[]; server: Server }> {
  const handled: NotificationEvent[] = [];
  const receiver = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret })], onEvent: (e) => void handled.push(e) });
  const server = createServer((req, res) => void receiver.node(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/gw`, handled, server };
}
