import { describe, expect, it } from 'vitest';
import { decodeCardRespon } from '@gw/xml-codec';
import { startSandbox } from '../src/index.ts';
import { api, receiver, until } from './control-harness.ts';
import { cardPayment, send } from './harness.ts';

describe('control API: notifications', () => {
  it('shows every delivery attempt, and resend makes a new delivery of the same event, which the merchant receives again', async () => {
    const hook = await receiver([500]);
    await using sandbox = await startSandbox({ notify: { baseDelayMs: 5 } });
    try {
      const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ notify_url: hook.url }))).text);
      await sandbox.notificationsIdle();
      const list = await api(sandbox, 'GET', 'notifications');
      expect(list.status).toBe(200);
      const [first] = list.json.notifications;
      expect(first).toMatchObject({
        kind: 'payment',
        eventKind: 'payment.authorised',
        eventId: hook.events[0]!.id,
        resendOf: null,
        key: respon.transaction_id,
        url: hook.url,
        delivered: true,
      });
      expect(first.attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
      expect(first.attempts[0].at).toMatch(/Z$/);
      expect(first.body).toBeUndefined();

      const one = await api(sandbox, 'GET', `notifications/${first.id}`);
      expect(one.json.notification.body).toBe(hook.bodies[0]);
      for (const secret of ['4111111111111111', 'security_code', 'expiration_month']) expect(one.text).not.toContain(secret);

      const resent = await api(sandbox, 'POST', `notifications/${first.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.json).toMatchObject({ resent: true, notification: { eventId: first.eventId, resendOf: first.id } });
      const second = resent.json.notification;
      expect(second.id).not.toBe(first.id);
      await until(() => hook.bodies.length === 3);
      expect(hook.refused).toEqual([]);
      expect(hook.events.map((e) => e.id)).toEqual([first.eventId, first.eventId, first.eventId]); // the receiver de-duplicates by it
      expect(hook.bodies[2]).toBe(hook.bodies[0]);
      await sandbox.notificationsIdle();
      const [original, again] = await Promise.all([first.id, second.id].map((id) => api(sandbox, 'GET', `notifications/${id}`)));
      expect(original!.json.notification.attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
      expect(again!.json.notification).toMatchObject({ delivered: true, resendOf: first.id, body: hook.bodies[2] });
      expect(again!.json.notification.attempts.map((a: { status: number }) => a.status)).toEqual([200]);
      const order = await api(sandbox, 'GET', `orders/${respon.transaction_id}`);
      expect(order.json.order.notifications).toEqual([
        expect.objectContaining({ id: first.id, delivered: true }),
        expect.objectContaining({ id: second.id, resendOf: first.id, delivered: true }),
      ]);
    } finally {
      await hook.close();
    }
  });

  it('answers 404 for a notification that does not exist, and resend of it does nothing', async () => {
    await using sandbox = await startSandbox();
    for (const id of ['999', 'abc']) {
      const reply = await api(sandbox, 'POST', `notifications/${id}/resend`);
      expect(reply.status).toBe(404);
      expect(reply.json.error).toMatchObject({ code: 'not_found', details: { notification: id } });
    }
    expect((await api(sandbox, 'GET', 'notifications')).json.notifications).toEqual([]);
    const bad = await api(sandbox, 'GET', 'notifications?limit=0&kind=payment');
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['limit', 'kind']);
  });

  it('lists the newest notifications first, as many as the limit asks', async () => {
    const hook = await receiver();
    await using sandbox = await startSandbox();
    try {
      for (let i = 0; i < 3; i++) await send(sandbox, 'authoriseCard', cardPayment({ notify_url: hook.url }));
      await sandbox.notificationsIdle();
      const two = await api(sandbox, 'GET', 'notifications?limit=2');
      expect(two.json.notifications.map((n: { id: number }) => n.id)).toEqual([3, 2]);
    } finally {
      await hook.close();
    }
  });
});
