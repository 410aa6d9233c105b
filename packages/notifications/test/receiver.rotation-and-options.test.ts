import { createHmacSha256Signer, createSha256ConcatSigner } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { constructEventAsync, createNotificationReceiver, NotificationRefusedError } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent } from './helpers.ts';

describe('verifiers, rotation and options', () => {
  it('accepts notifications signed with the old or the new secret while both verifiers are listed, and refuses others', async () => {
    const verifiers = [createHmacSha256Signer({ secret: 'new-secret' }), createHmacSha256Signer({ secret: 'old-secret' })];
    for (const secret of ['new-secret', 'old-secret']) {
      const n = await signedNotification({ event: cardEvent(), secret });
      expect((await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers })).id).toBe(n.event.id);
    }
    const stranger = await signedNotification({ event: cardEvent(), secret: 'third' });
    await expect(constructEventAsync({ body: stranger.bytes, headers: stranger.headers }, { verifiers })).rejects.toMatchObject({
      reason: 'signature-mismatch',
    });
  });

  it('accepts a header with several signatures when one verifies (a sender signing with two keys)', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: 'new-secret' });
    const header = n.headers['gw-signature']!.replace('v1=', 'v1=deadbeef,v1=');
    const event = await constructEventAsync(
      { body: n.bytes, headers: { 'gw-signature': header } },
      { verifiers: [createHmacSha256Signer({ secret: 'new-secret' })] },
    );
    expect(event.kind).toBe('payment.authorised');
  });

  it('awaits asynchronous verifiers (an HSM or a signing service), trying the next after an async false', async () => {
    const hmac = createHmacSha256Signer({ secret: 'hsm-secret' });
    const calls: string[] = [];
    const slowNo = { verify: async () => (calls.push('old'), false) };
    const slowYes = { verify: async (m: Parameters<typeof hmac.verify>[0], s: string) => (calls.push('new'), hmac.verify(m, s)) };
    const n = await signedNotification({ event: cardEvent(), secret: 'hsm-secret' });
    expect((await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers: [slowNo, slowYes] })).id).toBe(n.event.id);
    expect(calls).toEqual(['old', 'new']);
    await expect(constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers: [slowNo] })).rejects.toMatchObject({ reason: 'signature-mismatch' });
  });

  it('works with any Signer: a body-based example signer signs and verifies the same way', async () => {
    const signer = createSha256ConcatSigner({ secret: 's' });
    const n = await signedNotification({ event: cardEvent(), signer });
    expect((await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers: [signer] })).operation).toBe('authoriseCard');
  });

  it('narrows the typed union by operation', async () => {
    const n = await signedNotification({
      event: { kind: 'payout.completed', operation: 'payout', data: { request_id: 'r-1', payment_amount: '1.00', status: 'COMPLETED' } },
      secret: 's',
    });
    const event = await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers: [createHmacSha256Signer({ secret: 's' })] });
    if (event.operation !== 'payout') throw new Error('expected a payout');
    expect(event.data.status).toBe('COMPLETED'); // PayoutResponse
  });

  it('refuses bad options with every problem at once (GW_CONFIG)', () => {
    expect(() => createNotificationReceiver({ verifiers: [], toleranceSeconds: -1, onEvent: undefined as never })).toThrow(
      expect.objectContaining({
        code: 'GW_CONFIG',
        details: expect.objectContaining({
          problems: expect.arrayContaining([
            expect.stringContaining('onEvent'),
            expect.stringContaining('verifiers'),
            expect.stringContaining('toleranceSeconds'),
          ]),
        }),
      }),
    );
  });

  it('refuses a body over maxBodyBytes as too-large', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: 's' });
    const refused = await constructEventAsync(
      { body: n.bytes, headers: n.headers },
      { verifiers: [createHmacSha256Signer({ secret: 's' })], maxBodyBytes: 100 },
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotificationRefusedError);
    expect(refused).toMatchObject({ code: 'GW_DECODE', reason: 'too-large' });
  });
});
