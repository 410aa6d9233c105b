import { describe, expect, it } from 'vitest';
import { decodeCancelSubscription, encodeRequestBody } from '../src/index.ts';

describe('encodeRequestBody: one encoding per operation, shared by the client and the sandbox', () => {
  it('writes JSON in the record key order for JSON operations', () => {
    expect(encodeRequestBody('capture', { merchant_id: 'M1', capture_orders: [{ amount: '1.00' }] })).toBe('{"merchant_id":"M1","capture_orders":[{"amount":"1.00"}]}');
  });

  it('writes a form body for query, leaving out undefined members', () => {
    expect(encodeRequestBody('query', { merchant_id: 'M 1', order_no: 'A,B', transaction_id: undefined })).toBe('merchant_id=M+1&order_no=A%2CB');
  });

  it('writes the XML body for cancelSubscription, with a configurable root', () => {
    const xml = encodeRequestBody('cancelSubscription', { merchant_id: 'M1', recurring_id: 'R1', contract_name: 'Gold & Co' }, { xmlRoot: 'xml' });
    expect(xml).toContain('<xml>');
    expect(decodeCancelSubscription(xml, { root: 'xml' })).toEqual({ merchant_id: 'M1', recurring_id: 'R1', contract_name: 'Gold & Co' });
  });
});
