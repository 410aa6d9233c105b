import { describe, expect, it } from 'vitest';
import * as types from '../src/index.ts';

describe('@gw/types public exports', () => {
  it('are exactly these runtime values (types are pinned by the typecheck of dependants)', () => {
    expect(Object.keys(types).sort()).toEqual([
      'GW_ERROR_CODES',
      'GwError',
      'MAX_RECORD_DEPTH',
      'RecordValidator',
      'ValidationError',
      'checkoutForm',
      'closestName',
      'isGwError',
      'operations',
      'pointerToField',
      'querySelection',
      'secretFields',
      'specManifest',
      'specSchemas',
      'typeSchemas',
      'xmlRequestRoot',
    ]);
  });

  it('export the operation table with the limits of the seed', () => {
    const limits = Object.fromEntries(
      Object.values(types.operations)
        .filter((op) => op.batch)
        .map((op) => [op.name, op.batch!.limit]),
    );
    expect(limits).toEqual({ capture: 50, review: 100, cancel: 50, refund: 50, query: 100 });
    expect(Object.keys(types.operations).sort()).toEqual(
      ['authoriseAlternative', 'authoriseCard', 'cancel', 'cancelSubscription', 'capture', 'checkout', 'payout', 'query', 'refund', 'review'],
    );
    expect(types.operations.query).toMatchObject({ path: '/v1/retrievalTrans', requestEncoding: 'form', retryClass: 'safe', ipAllowListed: true });
    expect(types.operations.cancelSubscription).toMatchObject({ requestEncoding: 'xml', responseEncoding: 'json' });
    expect(types.secretFields).toEqual(['card', 'expiration_month', 'expiration_year', 'security_code']);
  });
});
