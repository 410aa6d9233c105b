import type { Server } from 'node:http';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotificationReceiver, NotificationRefusedError, type NotificationEvent } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, deliver, listen, SECRET } from './helpers.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** A receiver on real HTTP that records handler runs and refusals. */
async function setup(now = () => new Date()) {
  const handled: NotificationEvent[] = [];
  const refusals: NotificationRefusedError[] = [];
  const receiver = createNotificationReceiver({
    verifiers: [createHmacSha256Signer({ secret: SECRET })],
    clock: now,
    onEvent: (event) => void handled.push(event),
    onError: (error) => error instanceof NotificationRefusedError && refusals.push(error),
  });
  const { url, server } = await listen((req, res) => void receiver.node(req, res));
  servers.push(server);
  return { url, handled, refusals };
}

describe('a notification that cannot be trusted never reaches the handler', () => {
  it('accepts the untouched notification (control case)', async () => {
    const { url, handled } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect(await deliver(url, n.body, n.headers)).toEqual({ status: 200, json: { outcome: 'processed', id: n.event.id } });
    expect(handled).toEqual([n.event]);
  });

  it('refuses a tampered body (amount changed) as signature-mismatch, GW_SIGNATURE', async () => {
    const { url, handled, refusals } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const tampered = n.body.replace('"amount":"100.00"', '"amount":"900.00"');
    expect(tampered).not.toBe(n.body);
    const answer = await deliver(url, tampered, n.headers);
    expect(answer).toMatchObject({ status: 400, json: { outcome: 'refused', code: 'GW_SIGNATURE', reason: 'signature-mismatch' } });
    expect(handled).toEqual([]);
    expect(refusals.map((e) => [e.code, e.reason])).toEqual([['GW_SIGNATURE', 'signature-mismatch']]);
  });

  it('refuses a tampered signed time (header t changed) as signature-mismatch', async () => {
    const { url, handled } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const header = n.headers['gw-signature']!.replace(/t=(\d+)/, (_m, t: string) => `t=${Number(t) + 1}`);
    const answer = await deliver(url, n.body, { ...n.headers, 'gw-signature': header });
    expect(answer.json.reason).toBe('signature-mismatch');
    expect(handled).toEqual([]);
  });

  it('refuses a truncated body as truncated, GW_DECODE', async () => {
    const { url, handled, refusals } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const answer = await deliver(url, n.body.slice(0, n.body.length - 20), n.headers);
    expect(answer).toMatchObject({ status: 400, json: { code: 'GW_DECODE', reason: 'truncated' } });
    expect(refusals[0]).toBeInstanceOf(NotificationRefusedError);
    expect(handled).toEqual([]);
  });

  it('refuses a notification signed with another secret as signature-mismatch', async () => {
    const { url, handled, refusals } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: 'some-other-secret' });
    const answer = await deliver(url, n.body, n.headers);
    expect(answer).toMatchObject({ status: 400, json: { code: 'GW_SIGNATURE', reason: 'signature-mismatch' } });
    expect(refusals[0]!.details).toMatchObject({ reason: 'signature-mismatch', verifiers: 1, signatures: 1 });
    expect(handled).toEqual([]);
  });

  it('refuses a correctly signed notification outside the tolerance (old or from the future)', async () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const { url, handled, refusals } = await setup(() => now);
    const old = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt: new Date(now.getTime() - 301_000) });
    const future = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt: new Date(now.getTime() + 301_000) });
    const fresh = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt: new Date(now.getTime() - 299_000) });
    expect((await deliver(url, old.body, old.headers)).json).toMatchObject({ code: 'GW_SIGNATURE', reason: 'outside-tolerance' });
    expect((await deliver(url, future.body, future.headers)).json).toMatchObject({ reason: 'outside-tolerance' });
    expect((await deliver(url, fresh.body, fresh.headers)).status).toBe(200);
    expect(handled.map((e) => e.id)).toEqual([fresh.event.id]);
    expect(refusals[0]!.details).toMatchObject({ toleranceSeconds: 300, receivedAt: now.toISOString() });
  });

  it('refuses a malformed envelope listing every problem, and a body that is not JSON', async () => {
    const { url, handled, refusals } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const notJson = await deliver(url, 'hello', n.headers);
    expect(notJson.json).toMatchObject({ code: 'GW_DECODE', reason: 'malformed' });
    const wrong = JSON.stringify({ type: 'other', version: 2, id: '', kind: 'payment.chargeback', created_at: 'yesterday', operation: 'query', data: [] });
    expect((await deliver(url, wrong, n.headers)).json.reason).toBe('malformed');
    expect(refusals[1]!.details.problems).toHaveLength(7);
    expect(handled).toEqual([]);
  });

  it('refuses a notification without a signature header', async () => {
    const { url, handled } = await setup();
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect((await deliver(url, n.body, { 'content-type': 'application/json' })).json).toMatchObject({ code: 'GW_SIGNATURE', reason: 'no-signature' });
    expect(handled).toEqual([]);
  });

  it('never puts the body in a refusal (it may carry personal data)', async () => {
    const { url, refusals } = await setup();
    const n = await signedNotification({ event: cardEvent({ order_no: 'SECRET-ORDER-77' }), secret: 'other' });
    const answer = await deliver(url, n.body, n.headers);
    expect(JSON.stringify(answer.json)).not.toContain('SECRET-ORDER-77');
    expect(JSON.stringify(refusals[0])).not.toContain('SECRET-ORDER-77');
  });
});
