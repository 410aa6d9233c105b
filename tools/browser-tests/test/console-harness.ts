// The console's browser tests: a real sandbox, a merchant's notify endpoint on 127.0.0.1, a client.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type GwClient } from '@gw/client';
import { createNotificationReceiver, type NotificationEvent } from '@gw/notifications';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';

/**
 * A merchant's notify_url endpoint: the @gw/notifications node handler with the sandbox's secret. `handled` holds each
 * call of the merchant's handler (verified, once per event id); `bodies` every delivery's body as received.
 */
export async function notifyEndpoint(): Promise<{ url: string; bodies: string[]; handled: NotificationEvent[]; refused: unknown[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const handled: NotificationEvent[] = [];
  const refused: unknown[] = [];
  const receiver = createNotificationReceiver({
    verifiers: [createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET })],
    onEvent: (event) => void handled.push(event),
    onError: (error, answer) => void (answer.outcome === 'refused' && refused.push(error)),
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString('utf8'));
      void receiver
        .handle({ body, headers: req.headers })
        .then((answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    bodies,
    handled,
    refused,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A client of the sandbox with its default merchant and secret. */
export function sandboxClient(sandbox: Sandbox): GwClient {
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  return createClient({
    baseUrl: sandbox.url,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifier: signer,
  });
}
