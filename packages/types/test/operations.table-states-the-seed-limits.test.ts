import { describe, expect, it } from 'vitest';
import { operations, secretFields } from '../src/index.ts';

// The seed's facts as the generated table states them. The list of exports is the API report's (api/types.api.md);
// an operation added to the spec adds a row here without an edit to this file.
describe('the operation table', () => {
  it('states the batch limits of the seed for its batch operations', () => {
    expect(operations).toMatchObject({
      capture: { batch: { limit: 50 } },
      review: { batch: { limit: 100 } },
      cancel: { batch: { limit: 50 } },
      refund: { batch: { limit: 50 } },
      query: { batch: { limit: 100 } },
    });
  });

  it('states the encodings and retry classes the seed gives', () => {
    expect(operations.query).toMatchObject({ path: '/v1/retrievalTrans', requestEncoding: 'form', retryClass: 'safe', ipAllowListed: true });
    expect(operations.cancelSubscription).toMatchObject({ requestEncoding: 'xml', responseEncoding: 'json' });
  });

  it('marks card number, security code and expiry as secret', () => {
    expect(secretFields).toEqual(['card', 'expiration_month', 'expiration_year', 'security_code']);
  });
});
