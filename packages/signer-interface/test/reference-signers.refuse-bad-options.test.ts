import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSha256ConcatSigner, SignerConfigError } from '../src/index.ts';

describe.each([
  ['createHmacSha256Signer', createHmacSha256Signer],
  ['createSha256ConcatSigner', createSha256ConcatSigner],
])('%s', (_, create) => {
  it.each([
    ['an empty text secret', { secret: '' }, 'secret: must not be empty'],
    ['an empty byte secret', { secret: new Uint8Array(0) }, 'secret: must not be empty'],
    ['no secret', {}, 'needs a secret'],
    ['a number as secret', { secret: 918273645 }, 'must be a string or a Uint8Array, not number'],
    ['null as secret', { secret: null }, 'not null'],
    ['no options at all', undefined, 'needs an options object'],
    ['a bare string instead of options', '918273645', 'needs an options object'],
  ])('refuses %s with a GW_CONFIG SignerConfigError that does not echo the value', (_, options, text) => {
    let caught: unknown;
    try {
      create(options as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SignerConfigError);
    expect(caught).toMatchObject({ name: 'SignerConfigError', code: 'GW_CONFIG' });
    expect((caught as Error).message).toContain(text);
    expect(`${JSON.stringify(caught)} ${inspect(caught)}`).not.toContain('918273645');
  });
});
