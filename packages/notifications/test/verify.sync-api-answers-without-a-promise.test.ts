import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { constructEvent, constructEventSync, NotificationRefusedError, verifyNotification, verifyNotificationSync, verifySettings } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, SECRET } from './helpers.ts';

const verifiers = [createHmacSha256Signer({ secret: SECRET })];

describe('the synchronous verification', () => {
  it('returns the same event as the promise API, at once', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const event = constructEventSync({ body: n.bytes, headers: n.headers }, { verifiers });
    expect(event).not.toBeInstanceOf(Promise);
    expect(event).toEqual(await constructEvent({ body: n.bytes, headers: n.headers }, { verifiers }));
    expect(verifyNotificationSync({ body: n.bytes, headers: n.headers }, verifySettings({ verifiers })).id).toBe(n.event.id);
  });

  it('throws the same refusals as the promise API', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const tampered = new TextEncoder().encode(n.body.replace('100.00', '900.00'));
    const cases = [
      { body: tampered, headers: n.headers, reason: 'signature-mismatch' },
      { body: n.bytes, headers: { 'gw-signature': 'nope' }, reason: 'no-signature' },
      { body: n.bytes.subarray(0, 40), headers: n.headers, reason: 'truncated' },
    ];
    for (const { reason, ...input } of cases) {
      expect(() => constructEventSync(input, { verifiers })).toThrow(NotificationRefusedError);
      expect(() => constructEventSync(input, { verifiers })).toThrow(expect.objectContaining({ reason }));
      await expect(constructEvent(input, { verifiers })).rejects.toMatchObject({ reason });
    }
    const old = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt: new Date(Date.now() - 3_600_000) });
    expect(() => constructEventSync({ body: old.bytes, headers: old.headers }, { verifiers })).toThrow(expect.objectContaining({ reason: 'outside-tolerance' }));
  });

  it('leaves the promise API as it was: a refusal is a rejected promise, never a throw', async () => {
    const settings = verifySettings({ verifiers });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const cases = [
      { input: { body: n.bytes, headers: {} }, refused: 'no-signature' },
      { input: { body: new Uint8Array(2 * 1024 * 1024), headers: n.headers }, refused: 'too-large' },
      { input: { body: n.bytes, headers: n.headers }, refused: null },
    ];
    for (const { input, refused } of cases) {
      let answer: Promise<unknown> | undefined;
      expect(() => (answer = verifyNotification(input, settings))).not.toThrow();
      expect(answer).toBeInstanceOf(Promise);
      if (refused) await expect(answer).rejects.toThrow(expect.objectContaining({ name: NotificationRefusedError.name, reason: refused }));
      else await expect(answer).resolves.toMatchObject({ id: n.event.id });
    }
  });

  it('refuses a verifier that answers with a promise (GW_CONFIG), leaving no unhandled rejection', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing = { verify: async () => Promise.reject(new Error('HSM down')) };
      const slow = { verify: async () => true };
      for (const verifier of [failing, slow]) {
        expect(() => constructEventSync({ body: n.bytes, headers: n.headers }, { verifiers: [verifier] })).toThrow(expect.objectContaining({ code: 'GW_CONFIG' }));
      }
      await new Promise((resolve) => setTimeout(resolve, 20)); // a window for an unhandled rejection to show: its absence is the check
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
