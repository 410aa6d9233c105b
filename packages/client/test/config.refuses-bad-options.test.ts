import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { ConfigError, createClient, type ClientOptions } from '../src/index.ts';
import { merchant, METHOD_NAMES, sandboxSigner } from './support.ts';

const base: ClientOptions = { baseUrl: 'http://127.0.0.1:1', ...merchant, signer: sandboxSigner };

describe('createClient checks its options (ConfigError names the option)', () => {
  it.each([
    ['baseUrl', { baseUrl: undefined }],
    ['baseUrl', { baseUrl: 'not a url' }],
    ['baseUrl', { baseUrl: 'ftp://gw.example.test' }],
    ['baseUrl', { baseUrl: 'https://user:secret@gw.example.test' }],
    ['merchantId', { merchantId: '' }],
    ['accountId', { accountId: 7 }],
    ['signer', { signer: {} }],
    ['verifier', { signer: { sign: () => 'x' } }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['retry.attempts', { retry: { attempts: 1.5 } }],
    ['retry.baseDelayMs', { retry: { baseDelayMs: -1 } }],
    ['transport.dispatcher', { transport: { dispatcher: {} } }],
    ['hooks.onError', { hooks: { onError: 'log' } }],
    ['jsonContentType', { jsonContentType: '' }],
    ['querySelection', { querySelection: 'order_no' }],
    ['fieldNameOverrides', { fieldNameOverrides: { a: 'x', b: 'x' } }],
    ['fieldNameOverrides["the service"]', { fieldNameOverrides: { 'the service': '' } }],
    ['exactNumbers', { exactNumbers: 'yes' }],
    ['maxInputBytes', { maxInputBytes: 1.5 }],
    ['headers["x-a"]', { headers: { 'x-a': 1 } }],
  ])('%s', (option, override) => {
    const create = () => createClient({ ...base, ...(override as object) } as ClientOptions);
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(
      expect.objectContaining({ code: 'GW_CONFIG', details: expect.objectContaining({ option }), message: expect.stringContaining(option) }),
    );
  });

  it('names every bad option at once, as BatchSettingsError does', () => {
    const error = (() => {
      try {
        createClient({
          ...base,
          baseUrl: 'ftp://x',
          merchantId: '',
          timeoutMs: -5,
          retry: { attempts: 0 },
          headers: { a: 1, b: '' },
          hooks: { onRequest: 'log' },
          unknownFields: 'drop',
        } as never);
      } catch (e) {
        return e;
      }
      return undefined;
    })() as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    const named = error.details.problems.map((p) => p.option);
    expect(named.sort()).toEqual(['baseUrl', 'headers["a"]', 'headers["b"]', 'hooks.onRequest', 'merchantId', 'retry.attempts', 'timeoutMs', 'unknownFields']);
    expect(error.message).toContain('8 problems');
    for (const option of named) expect(error.message).toContain(option);
  });

  it('a signer that can verify is the verifier by default; verifyResponses: false needs none', async () => {
    await using one = createClient(base);
    await using separate = createClient({ ...base, signer: { sign: () => 'x' }, verifier: createHmacSha256Signer({ secret: 's' }) });
    await using unchecked = createClient({ ...base, signer: { sign: () => 'x' }, verifyResponses: false });
    // One method per operation of the spec, and close.
    expect(Object.keys(one).sort()).toEqual([...METHOD_NAMES, 'close'].sort());
    expect([separate, unchecked].every((client) => typeof client.capture === 'function')).toBe(true);
  });

  it('a call with a bad per-call timeout or a non-object record is refused before anything is sent', async () => {
    await using client = createClient(base);
    await expect(client.query({ order_no: ['X'] }, { timeoutMs: -1 })).rejects.toBeInstanceOf(ConfigError);
    await expect(client.capture(null as never)).rejects.toBeInstanceOf(ConfigError);
  });
});
