import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSignableMessage } from '@gw/signer-interface';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { cardPayment, send, signer } from './harness.ts';

/** A notify_url receiver on 127.0.0.1 that answers with the given statuses in turn. */
async function receiver(statuses: number[]): Promise<{ url: string; bodies: string[]; server: Server }> {
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, bodies, server };
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
    expect(gaps[1]!).toBeGreaterThanOrEqual(gaps[0]!);
    const { encryption_data, ...unsigned } = JSON.parse(hook.bodies[2]!);
    expect(unsigned.order_status).toBe('1');
    expect(await signer.verify(createSignableMessage({ operation: 'authoriseCard', record: unsigned, body: '' }), encryption_data)).toBe(true);
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
  });
});
