// constructEvent answers at once, as stripe-node's does; constructEventAsync is the same check for any verifier, its
// refusals rejecting the promise, never thrown.
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { constructEvent, constructEventAsync, NotificationRefusedError } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, SECRET } from './helpers.ts';

const verifiers = [createHmacSha256Signer({ secret: SECRET })];

describe('constructEvent: the event at once', () => {
  it('returns the same event as constructEventAsync, not a promise', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const event = constructEvent({ body: n.bytes, headers: n.headers }, { verifiers });
    expect(event).not.toBeInstanceOf(Promise);
    expect(event.id).toBe(n.event.id);
    expect(event).toEqual(await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers }));
  });

  it('throws the refusals constructEventAsync rejects with, reason by reason', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const tampered = new TextEncoder().encode(n.body.replace('100.00', '900.00'));
    const cases = [
      { body: tampered, headers: n.headers, reason: 'signature-mismatch' },
      { body: n.bytes, headers: { 'gw-signature': 'nope' }, reason: 'no-signature' },
      { body: n.bytes.subarray(0, 40), headers: n.headers, reason: 'truncated' },
    ];
    for (const { reason, ...input } of cases) {
      expect(() => constructEvent(input, { verifiers })).toThrow(NotificationRefusedError);
      expect(() => constructEvent(input, { verifiers })).toThrow(expect.objectContaining({ reason }));
      await expect(constructEventAsync(input, { verifiers })).rejects.toMatchObject({ reason });
    }
    const old = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt: new Date(Date.now() - 3_600_000) });
    expect(() => constructEvent({ body: old.bytes, headers: old.headers }, { verifiers })).toThrow(expect.objectContaining({ reason: 'outside-tolerance' }));
  });

  it('refuses options with every problem at once (GW_CONFIG)', () => {
    expect(() => constructEvent({ body: new Uint8Array(1), headers: {} }, { verifiers: [], toleranceSeconds: -1 })).toThrow(
      expect.objectContaining({
        code: 'GW_CONFIG',
        details: { problems: [expect.stringContaining('verifiers'), expect.stringContaining('toleranceSeconds')] },
      }),
    );
  });

  it('refuses a verifier that answers with a promise (GW_CONFIG, pointing to constructEventAsync), leaving no unhandled rejection', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing = { verify: async () => Promise.reject(new Error('HSM down')) };
      const slow = { verify: async () => true };
      for (const verifier of [failing, slow]) {
        expect(() => constructEvent({ body: n.bytes, headers: n.headers }, { verifiers: [verifier] })).toThrow(
          expect.objectContaining({ code: 'GW_CONFIG', message: expect.stringContaining('constructEventAsync') }),
        );
      }
      // Time passing is the point: an unhandled rejection would be reported within it.
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('constructEventAsync: any verifier, refusals as rejections', () => {
  it('never throws: a refusal is a rejected promise naming its reason, a good notification resolves to its event', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const cases = [
      { input: { body: n.bytes, headers: {} }, refused: 'no-signature' },
      { input: { body: new Uint8Array(2 * 1024 * 1024), headers: n.headers }, refused: 'too-large' },
      { input: { body: n.bytes, headers: n.headers }, refused: null },
    ];
    for (const { input, refused } of cases) {
      let answer: Promise<unknown> | undefined;
      expect(() => (answer = constructEventAsync(input, { verifiers }))).not.toThrow();
      expect(answer).toBeInstanceOf(Promise);
      if (refused) await expect(answer).rejects.toThrow(expect.objectContaining({ name: NotificationRefusedError.name, reason: refused }));
      else await expect(answer).resolves.toMatchObject({ id: n.event.id });
    }
  });

  it('awaits a verifier that answers later (an HSM)', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const hsm = { verify: async (message: Parameters<(typeof verifiers)[0]['verify']>[0], signature: string) => verifiers[0]!.verify(message, signature) };
    await expect(constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers: [hsm] })).resolves.toMatchObject({ id: n.event.id });
  });
});
