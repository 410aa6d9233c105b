import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructEventAsync } from '@gw/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { cardPayment, send, signer } from './harness.ts';

/** A notify_url receiver on 127.0.0.1 that answers with the given statuses in turn. */
async function receiver(statuses: number[]): Promise<{ url: string; bodies: string[]; headers: Record<string, string>[]; server: Server }> {
  const bodies: string[] = [];
  const headers: Record<string, string>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      headers.push(req.headers as Record<string, string>);
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, bodies, headers, server };
}

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

describe('notifications to notify_url (UNKNOWNS U44, U45)', () => {
  it('POSTs the signed result, retrying with backoff until a 2xx, and logs every attempt', async () => {
    const hook = await receiver([500, 503, 200]);
    servers.push(hook.server);
    await using sandbox = await startSandbox({ notify: { baseDelayMs: 20 } });
    await send(sandbox, 'authoriseCard', cardPayment({ notify_url: hook.url }));
    await sandbox.notificationsIdle();
    const [delivery] = sandbox.state.notifications;
    expect(delivery).toMatchObject({ url: hook.url, kind: 'payment', delivered: true });
    expect(delivery!.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    const gaps = delivery!.attempts.slice(1).map((a, i) => a.at.getTime() - delivery!.attempts[i]!.at.getTime());
    // Attempts are stamped when they start: each waits at least its backoff (20 ms, then 40 ms) after the one before.
    // The stamps are wall-clock milliseconds and the timers run on the monotonic clock: the two round apart by up to
    // 1 ms (a 40 ms wait was seen stamped 39 ms apart).
    expect(gaps[0]!).toBeGreaterThanOrEqual(19);
    expect(gaps[1]!).toBeGreaterThanOrEqual(39);
    const event = await constructEventAsync({ body: new TextEncoder().encode(hook.bodies[2]!), headers: hook.headers[2]! }, { verifiers: [signer] });
    expect(event).toMatchObject({ type: 'gw.notification', version: 1, kind: 'payment.authorised', operation: 'authoriseCard', data: { order_status: '1' } });
    // Every attempt carries the same event (same id, same body); only the signed time may differ.
    expect(new Set(hook.bodies).size).toBe(1);
    expect(delivery).toMatchObject({ eventId: event.id, eventKind: 'payment.authorised', body: hook.bodies[2] });
  });

  it('gives up after the bounded number of attempts', async () => {
    const hook = await receiver([500, 500, 500, 500]);
    servers.push(hook.server);
    await using sandbox = await startSandbox({ notify: { baseDelayMs: 5, attempts: 3 } });
    await send(sandbox, 'authoriseCard', cardPayment({ notify_url: hook.url }));
    await sandbox.notificationsIdle();
    expect(sandbox.state.notifications[0]).toMatchObject({ delivered: false });
    expect(sandbox.state.notifications[0]!.attempts).toHaveLength(3);
    expect(hook.bodies).toHaveLength(3);
  });

  it('delivers a notification twice under the duplicate-notification fault', async () => {
    const hook = await receiver([]);
    servers.push(hook.server);
    await using sandbox = await startSandbox();
    sandbox.faults.inject('/v1/payout', 'duplicate-notification');
    await send(sandbox, 'payout', { request_id: crypto.randomUUID(), payment_amount: '1.00', payment_currency: 'USD', notify_url: hook.url });
    await sandbox.notificationsIdle();
    expect(hook.bodies).toHaveLength(2);
    expect(hook.bodies[0]).toBe(hook.bodies[1]);
    // Two deliveries of one event: the same event id is what a receiver de-duplicates on.
    const [a, b] = sandbox.state.notifications;
    expect(a!.id).not.toBe(b!.id);
    expect(a!.eventId).toBe(b!.eventId);
    expect(JSON.parse(hook.bodies[0]!)).toMatchObject({ id: a!.eventId, kind: 'payout.completed', operation: 'payout' });
  });
});
