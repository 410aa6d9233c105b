// 1,000 payments, 10% duplicate notifications (the sandbox fault), the merchant answering 5xx
// to 10% of first attempts: the merchant's handler runs exactly once per payment. Real sandbox, real HTTP, the real
// receiver of @gw/notifications.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNotificationReceiver, type NotificationEvent } from '@gw/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { cardPayment, send, signer } from './harness.ts';

const PAYMENTS = Number(process.env.GW_NOTIFY_PAYMENTS ?? 1000);
const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

describe('notifications end to end: exactly one handler run per payment', () => {
  it(`${PAYMENTS} card payments, 10% duplicated, 10% of first attempts answered 503: the handler runs once per payment`, async () => {
    const runs = new Map<string, number>();
    const transactions = new Set<string>();
    const receiver = createNotificationReceiver({
      verifiers: [signer],
      onEvent: async (event: NotificationEvent) => {
        runs.set(event.id, (runs.get(event.id) ?? 0) + 1);
        transactions.add(String(event.data.transaction_id));
        await new Promise((r) => setImmediate(r)); // the application's own work
      },
    });
    // In front of the receiver, a flaky load balancer: the first attempt of 10% of the events (chosen by the last hex
    // digits of their id) gets 503 without reaching the application.
    const seen = new Set<string>();
    let refusedFirst = 0;
    let deliveries = 0;
    const server = createServer((req, res) => {
      deliveries += 1;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const id = String(JSON.parse(body.toString('utf8')).id);
        const first = !seen.has(id);
        seen.add(id);
        if (first && Number.parseInt(id.slice(-2), 16) < 26) {
          refusedFirst += 1;
          res.writeHead(503).end();
          return;
        }
        (req as typeof req & { body: Buffer }).body = body; // the raw bytes, as express.raw() hands them over
        void receiver.node(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const notifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;

    await using sandbox = await startSandbox({ faults: { '/v1/authorise': { duplicateNotification: 0.1 } }, notify: { baseDelayMs: 20, attempts: 8 } });
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < PAYMENTS) {
        next += 1;
        const reply = await send(sandbox, 'authoriseCard', cardPayment({ notify_url: notifyUrl }));
        expect(reply.status).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await sandbox.notificationsIdle(60_000);

    const log = sandbox.state.notifications;
    const events = new Set(log.map((d) => d.eventId));
    expect(events.size).toBe(PAYMENTS);
    expect(log.length - PAYMENTS).toBeGreaterThan(PAYMENTS * 0.05); // the duplicate fault happened
    expect(refusedFirst).toBeGreaterThan(PAYMENTS * 0.05); // and so did the 503s
    expect(log.every((d) => d.delivered)).toBe(true);
    expect(runs.size).toBe(PAYMENTS);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(transactions.size).toBe(PAYMENTS);
    expect(deliveries).toBeGreaterThan(log.length); // retries happened on top of the duplicates
  });
});
