import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { constructEventAsync, decodeGwNotification, headerValue, notificationMessage, type NotificationDecoder } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, SECRET } from './helpers.ts';

const verifiers = [createHmacSha256Signer({ secret: SECRET })];

// A team's own format: the same envelope, the time and the signature in two headers of their own.
const teamDecoder: NotificationDecoder = (input) => {
  const text = new TextDecoder().decode(input.body);
  const event = JSON.parse(text);
  const t = headerValue(input.headers, 'x-team-time') ?? '';
  return {
    event,
    message: notificationMessage(event.operation, t, text),
    signatures: [headerValue(input.headers, 'x-team-signature') ?? ''],
    signedAt: new Date(Number(t) * 1000),
  };
};

async function teamNotification(signedAt = new Date()) {
  const n = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt });
  const { t, signatures } = { t: /t=(\d+)/.exec(n.headers['gw-signature']!)![1]!, signatures: /v1=([0-9a-f]+)/.exec(n.headers['gw-signature']!)!.slice(1) };
  return { n, headers: { 'x-team-time': t, 'x-team-signature': signatures[0]! } };
}

describe('a custom decoder and clock', () => {
  it('verifies what a custom decoder reads, with the same signature and tolerance checks', async () => {
    const { n, headers } = await teamNotification();
    expect((await constructEventAsync({ body: n.bytes, headers }, { verifiers, decode: teamDecoder })).id).toBe(n.event.id);
    const tampered = new TextEncoder().encode(n.body.replace('100.00', '900.00'));
    await expect(constructEventAsync({ body: tampered, headers }, { verifiers, decode: teamDecoder })).rejects.toMatchObject({ reason: 'signature-mismatch' });
    const old = await teamNotification(new Date(Date.now() - 3_600_000));
    await expect(constructEventAsync({ body: old.n.bytes, headers: old.headers }, { verifiers, decode: teamDecoder })).rejects.toMatchObject({
      reason: 'outside-tolerance',
    });
  });

  it('refuses a decoded time that is not a date (outside-tolerance), never taking it as within the tolerance', async () => {
    const { n } = await teamNotification();
    const invalidTime: NotificationDecoder = (input) => ({ ...decodeGwNotification(input), signedAt: new Date(Number.NaN) });
    const refused = await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers, decode: invalidTime }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'GW_SIGNATURE', reason: 'outside-tolerance', details: { signedAt: 'an invalid time' } });
  });

  it('reads the time from an injected clock, for the default decoder too', async () => {
    const signedAt = new Date('2026-01-01T00:00:00Z');
    const n = await signedNotification({ event: cardEvent(), secret: SECRET, signedAt });
    const at = (ms: number) => () => new Date(signedAt.getTime() + ms);
    expect((await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers, clock: at(299_000) })).id).toBe(n.event.id);
    expect((await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers, clock: at(-300_000) })).id).toBe(n.event.id);
    await expect(constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers, clock: at(301_000) })).rejects.toMatchObject({
      reason: 'outside-tolerance',
      details: { receivedAt: '2026-01-01T00:05:01.000Z', signedAt: '2026-01-01T00:00:00.000Z' },
    });
    await expect(constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers })).rejects.toMatchObject({ reason: 'outside-tolerance' });
  });
});
