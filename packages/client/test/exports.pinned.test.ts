import { describe, expect, it } from 'vitest';
import * as client from '../src/index.ts';

describe('@gw/client public exports', () => {
  it('are exactly these runtime values (types are pinned by the typecheck of dependants)', () => {
    expect(Object.keys(client).sort()).toEqual([
      'ConfigError',
      'ConnectionError',
      'DEFAULT_RETRY',
      'DecodeError',
      'GW_ERROR_CODES',
      'GatewayError',
      'GwError',
      'HttpError',
      'NotSentError',
      'OutcomeUnknownError',
      'REDACTED',
      'RETURN_PARAMETERS',
      'ReturnParametersError',
      'SignatureError',
      'TimeoutError',
      'ValidationError',
      'createClient',
      'defaultQuerySelection',
      'exactNumber',
      'isGwError',
      'redactRecord',
      'redactText',
      'splitCodeMessage',
      'verifyReturnParameters',
    ]);
  });

  it('every error class is a GwError with a stable code', () => {
    const codes = Object.fromEntries(
      ['ConfigError', 'ConnectionError', 'DecodeError', 'GatewayError', 'HttpError', 'NotSentError', 'OutcomeUnknownError', 'ReturnParametersError', 'SignatureError', 'TimeoutError', 'ValidationError'].map((name) => [
        name,
        (client as unknown as Record<string, { prototype: unknown }>)[name]!.prototype instanceof client.GwError,
      ]),
    );
    expect(Object.values(codes).every(Boolean)).toBe(true);
    expect(client.GW_ERROR_CODES).toMatchObject({ gateway: 'GW_GATEWAY', http: 'GW_HTTP', signature: 'GW_SIGNATURE', decode: 'GW_DECODE', validation: 'GW_VALIDATION', timeout: 'GW_TIMEOUT', outcomeUnknown: 'GW_OUTCOME_UNKNOWN', config: 'GW_CONFIG' });
  });
});
