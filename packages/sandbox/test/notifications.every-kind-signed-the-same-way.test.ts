// Every notification the sandbox sends (card authorised and declined, alternative method, hosted checkout
// cancelled by the shopper and expired by the clock, payout completed and failed) is one envelope signed the same way over the delivered
// bytes, verified by the receiver of @gw/notifications.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  constructEventAsync,
  createNotificationReceiver,
  createNotificationEvent,
  headerValue,
  NotificationRefusedError,
  notificationMessage,
  type NotificationEvent,
} from '@gw/notifications';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, TEST_CARDS } from '../src/index.ts';
import { cardPayment, send, signer } from './harness.ts';
import { createAlternative, createCheckout, page } from './pages-harness.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** A notify_url that keeps each raw delivery (body bytes and headers) and answers 200. */
async function hook(): Promise<{ url: string; got: { body: Uint8Array; headers: Record<string, string> }[] }> {
  const got: { body: Uint8Array; headers: Record<string, string> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks), headers: req.headers as Record<string, string> });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, got };
}

describe('one signed notification format for every kind', () => {
  it('card authorised and declined, alternative, checkout (cancelled, expired) and payout all verify with the same receiver', async () => {
    const h = await hook();
    await using sandbox = await startSandbox();
    await send(sandbox, 'authoriseCard', cardPayment({ notify_url: h.url }));
    await send(sandbox, 'authoriseCard', cardPayment({ notify_url: h.url, card: TEST_CARDS.declined }));
    // Redirect payments are notified when the shopper acts (the issuer page, the checkout page) or when they expire.
    const alternative = await createAlternative(sandbox, { notify_url: h.url });
    expect((await page(alternative.issuerUrl, { sandbox_action: 'approve' })).status).toBe(303);
    const cancelled = await createCheckout(sandbox, { notify_url: h.url });
    expect((await page(cancelled.action, { sandbox_action: 'cancel' })).status).toBe(303);
    const abandoned = await createCheckout(sandbox, { notify_url: h.url });
    expect(sandbox.advanceClock(31 * 60_000).expiredPayments).toBe(1);
    expect(sandbox.state.orders.get(abandoned.transactionId)!.state).toBe('expired');
    await send(sandbox, 'payout', { request_id: crypto.randomUUID(), payment_amount: '1.00', payment_currency: 'USD', notify_url: h.url });
    await send(sandbox, 'payout', { request_id: crypto.randomUUID(), payment_amount: '1.05', payment_currency: 'USD', notify_url: h.url });
    await sandbox.notificationsIdle();
    expect(h.got).toHaveLength(7);
    const events: NotificationEvent[] = [];
    for (const delivery of h.got) events.push(await constructEventAsync(delivery, { verifiers: [signer] }));
    expect(events.map((e) => [e.operation, e.kind]).sort()).toEqual([
      ['authoriseAlternative', 'payment.authorised'],
      ['authoriseCard', 'payment.authorised'],
      ['authoriseCard', 'payment.declined'],
      ['checkout', 'payment.cancelled'],
      ['checkout', 'payment.expired'],
      ['payout', 'payout.completed'],
      ['payout', 'payout.failed'],
    ]);
    for (const e of events) {
      expect(e).toMatchObject({ type: 'gw.notification', version: 1, id: expect.stringMatching(/^evt_[0-9a-f]{32}$/) });
      expect(Number.isNaN(Date.parse(e.created_at))).toBe(false);
      expect(e.data).not.toHaveProperty('encryption_data'); // the signature travels in gw-signature, over the whole body
    }
    const wrongSecret = await constructEventAsync(h.got[0]!, { verifiers: [createHmacSha256Signer({ secret: 'not-the-sandbox-secret' })] }).catch(
      (e: unknown) => e,
    );
    expect(wrongSecret).toBeInstanceOf(NotificationRefusedError);
  });

  it('resend delivers the same event id again; the receiver acknowledges it without running the handler twice', async () => {
    let runs = 0;
    const receiver = createNotificationReceiver({ verifiers: [signer], onEvent: () => void (runs += 1) });
    const server = createServer((req, res) => void receiver.node(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    await using sandbox = await startSandbox();
    await send(sandbox, 'authoriseCard', cardPayment({ notify_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }));
    await sandbox.notificationsIdle();
    const [first] = sandbox.state.notifications;
    const again = sandbox.resendNotification(first!.id);
    expect(again).toMatchObject({ id: 2, eventId: first!.eventId, resendOf: 1 });
    expect(sandbox.resendNotification(first!.eventId)).toMatchObject({ id: 3, eventId: first!.eventId, resendOf: 2 });
    expect(sandbox.resendNotification(999)).toBeNull();
    await sandbox.notificationsIdle();
    expect(sandbox.state.notifications.map((d) => d.delivered)).toEqual([true, true, true]);
    expect(runs).toBe(1);
  });

  it('a team matching its own gateway replaces the encoder (sandbox) and the decoder (receiver)', async () => {
    const h = await hook();
    const teamSigner = createHmacSha256Signer({ secret: 'team-secret' });
    // Their gateway: the bare result record as the body, the event id and kind in headers, an X-Signature header.
    await using sandbox = await startSandbox({
      notify: {
        encode: async (event, { signer: s, signedAt }) => {
          const body = JSON.stringify(event.data);
          const t = String(Math.floor(signedAt.getTime() / 1000));
          const sig = await s.sign(notificationMessage(event.operation, t, body));
          return {
            body,
            headers: {
              'content-type': 'application/json',
              'x-event-id': event.id,
              'x-event-kind': event.kind,
              'x-operation': event.operation,
              'x-signature': `${t}:${sig}`,
              'x-created': event.created_at,
            },
          };
        },
      },
      signer: teamSigner,
      verifier: signer,
    });
    await send(sandbox, 'authoriseCard', cardPayment({ notify_url: h.url }));
    await sandbox.notificationsIdle();
    const event = await constructEventAsync(h.got[0]!, {
      verifiers: [teamSigner],
      decode: ({ body, headers }) => {
        const text = new TextDecoder().decode(body);
        const [t, sig] = String(headerValue(headers, 'x-signature')).split(':');
        const operation = headerValue(headers, 'x-operation') as 'authoriseCard';
        const event = createNotificationEvent({
          id: headerValue(headers, 'x-event-id')!,
          kind: headerValue(headers, 'x-event-kind') as 'payment.authorised',
          operation,
          data: JSON.parse(text),
          createdAt: new Date(headerValue(headers, 'x-created')!),
        });
        return { event, message: notificationMessage(operation, t!, text), signatures: [sig!], signedAt: new Date(Number(t) * 1000) };
      },
    });
    expect(event).toMatchObject({ id: sandbox.state.notifications[0]!.eventId, kind: 'payment.authorised', data: { order_status: '1' } });
  });
});
