import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { constructEventAsync, decodeGwNotification, headerValue, NotificationRefusedError } from '../src/index.ts';
import { parseSignatureHeader, type SignatureHeader } from '../src/format/signature-header.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, SECRET } from './helpers.ts';

function parsed(value: string): SignatureHeader | null {
  try {
    const { t, signatures } = parseSignatureHeader(value);
    return { t, signatures: [...signatures] };
  } catch (error) {
    expect(error).toBeInstanceOf(NotificationRefusedError);
    expect((error as NotificationRefusedError).reason).toBe('no-signature');
    return null;
  }
}

describe('the gw-signature header', () => {
  // [header, what is read, or null for a refusal (no-signature)]: comma-separated key=value parts, keys and values
  // trimmed, the first t counts and must be 1 to 12 digits, empty v1 parts are ignored, other parts too.
  const headers: [string, SignatureHeader | null][] = [
    ['t=1790000000,v1=abc', { t: '1790000000', signatures: ['abc'] }],
    [' t = 1790000000 , v1 = abc , v1=def ', { t: '1790000000', signatures: ['abc', 'def'] }],
    ['v1=abc,t=1790000000', { t: '1790000000', signatures: ['abc'] }],
    ['t=1790000000,t=1,v1=abc', { t: '1790000000', signatures: ['abc'] }],
    ['t=1,v1=,v1=abc', { t: '1', signatures: ['abc'] }],
    ['t=1790000000,v0=old,v1=abc=def,x', { t: '1790000000', signatures: ['abc=def'] }],
    ['t=1790000000,,v1=abc,', { t: '1790000000', signatures: ['abc'] }],
    ['t=1790000000,v1=a,b=,=c,v1=d', { t: '1790000000', signatures: ['a', 'd'] }],
    ['t=1790000000,v1=abc=', { t: '1790000000', signatures: ['abc='] }],
    ['t=1790000000,v1=ab c', { t: '1790000000', signatures: ['ab c'] }],
    ['t=1790000000,v1= abc', { t: '1790000000', signatures: ['abc'] }],
    ['t=1790000000,v1=abc ', { t: '1790000000', signatures: ['abc'] }],
    ['t=1790000000,v1=abc\u00a0', { t: '1790000000', signatures: ['abc'] }],
    ['t=1790000000,v1=abc,', { t: '1790000000', signatures: ['abc'] }],
    ['t=123456789012,v1=abc', { t: '123456789012', signatures: ['abc'] }],
    ['t=1790000000 ,v1=abc', { t: '1790000000', signatures: ['abc'] }],
    [',,=,t=,v1=abc', null],
    ['t=abc,v1=abc', null],
    ['t=1790000000', null],
    ['v1=abc', null],
    ['t=1234567890123,v1=abc', null],
    ['t=1790000000,v1', null],
    ['t=1790000000,v1=', null],
    ['t=1790000000,v2=abc', null],
    ['t=,v1=abc', null],
    ['t=17900x0000,v1=abc', null],
    ['T=1790000000,v1=abc', null],
    ['garbage', null],
    [' ', null],
    [',', null],
    ['=', null],
  ];
  it.each(headers)('reads %j as %j', (value, expected) => {
    expect(parsed(value)).toEqual(expected);
  });

  it('reads a 64 KiB header of parts without "=" in one pass (refused, not hung)', () => {
    const started = process.hrtime.bigint();
    expect(parsed(`${','.repeat(65_536)}t=1`)).toBeNull();
    expect(parsed(`${'x,'.repeat(32_768)}t=1790000000,v1=abc`)).toEqual({ t: '1790000000', signatures: ['abc'] });
    // Quadratic re-scanning would take seconds here; one pass takes well under a millisecond.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1_000);
  });
});

describe('headerValue', () => {
  it('finds a header in a node:http record, in any spelling, and joins repeated values', () => {
    expect(headerValue({ 'gw-signature': 't=1,v1=a' }, 'GW-Signature')).toBe('t=1,v1=a');
    expect(headerValue({ 'GW-Signature': 't=1,v1=a' }, 'gw-signature')).toBe('t=1,v1=a');
    expect(headerValue({ 'x-a': ['1', '2'] }, 'X-A')).toBe('1, 2');
    expect(headerValue(new Headers({ 'GW-Signature': 't=1' }), 'gw-signature')).toBe('t=1');
    // Keys are compared lower-cased, as String#toLowerCase does it, whatever their length: the Kelvin sign lower-cases to k.
    expect(headerValue({ 'content-type': 'a', '\u212Aey': 'b' }, 'key')).toBe('b');
    expect(headerValue({ 'x-long-header-name': 'a', Key: 'c' }, 'KEY')).toBe('c');
    expect(headerValue({ ke: 'a', keys: 'b' }, 'key')).toBeUndefined();
  });

  it('never takes an inherited member for a header', () => {
    expect(headerValue({}, 'constructor')).toBeUndefined();
    expect(headerValue({}, 'toString')).toBeUndefined();
    expect(headerValue({ Constructor: 'yes' }, 'constructor')).toBe('yes');
  });
});

describe('the body as received', () => {
  it('is refused as malformed when it is not UTF-8, and the handler never sees it', async () => {
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const bytes = new Uint8Array([...n.bytes.subarray(0, 20), 0xc3, 0x28, ...n.bytes.subarray(20)]);
    const decode = () => decodeGwNotification({ body: bytes, headers: n.headers });
    expect(decode).toThrow(NotificationRefusedError);
    expect(decode).toThrow(
      expect.objectContaining({ code: 'GW_DECODE', reason: 'malformed', details: expect.objectContaining({ problems: ['the body is not UTF-8'] }) }),
    );
  });

  it('verifies non-ASCII text byte for byte (the signature covers the UTF-8 bytes as sent)', async () => {
    const n = await signedNotification({ event: cardEvent({ note: 'Grüße, 配送 😀' }), secret: SECRET });
    const event = await constructEventAsync({ body: n.bytes, headers: n.headers }, { verifiers: [createHmacSha256Signer({ secret: SECRET })] });
    expect(event).toEqual(n.event);
    const changed = new TextEncoder().encode(n.body.replace('Grüße', 'Grüsse'));
    await expect(constructEventAsync({ body: changed, headers: n.headers }, { verifiers: [createHmacSha256Signer({ secret: SECRET })] })).rejects.toMatchObject(
      { reason: 'signature-mismatch' },
    );
  });
});
