import { describe, expect, it } from 'vitest';
import { decodeCancelSubscription, encodeRequestBody } from '../src/index.ts';

describe('encodeRequestBody: one encoding per operation, shared by the client and the sandbox', () => {
  it('writes JSON in the record key order for JSON operations', () => {
    expect(encodeRequestBody('capture', { merchant_id: 'M1', capture_orders: [{ amount: '1.00' }] })).toBe(
      '{"merchant_id":"M1","capture_orders":[{"amount":"1.00"}]}',
    );
  });

  it('writes a form body for query, leaving out undefined members', () => {
    expect(encodeRequestBody('query', { merchant_id: 'M 1', order_no: 'A,B', transaction_id: undefined })).toBe('merchant_id=M+1&order_no=A%2CB');
  });

  it('writes the XML body for cancelSubscription, with a configurable root', () => {
    const xml = encodeRequestBody('cancelSubscription', { merchant_id: 'M1', recurring_id: 'R1', contract_name: 'Gold & Co' }, { xmlRoot: 'xml' });
    expect(xml).toContain('<xml>');
    expect(decodeCancelSubscription(xml, { root: 'xml' })).toEqual({ merchant_id: 'M1', recurring_id: 'R1', contract_name: 'Gold & Co' });
  });

  it('writes authorise and checkout as a form when asked (their body type is not declared: UNKNOWNS U31), nested members as JSON text', () => {
    const record = { merchant_id: 'M1', amount: '1.00', billing: { city: 'Köln & Bonn' }, items: [{ sku: 'A=1' }] };
    const form = encodeRequestBody('authoriseCard', record, { encoding: 'form' });
    expect(Object.fromEntries(new URLSearchParams(form))).toEqual({
      merchant_id: 'M1',
      amount: '1.00',
      billing: '{"city":"Köln & Bonn"}',
      items: '[{"sku":"A=1"}]',
    });
    expect(encodeRequestBody('checkout', record, { encoding: 'json' })).toBe(JSON.stringify(record));
  });

  it('refuses another encoding for an operation whose body type the seed declares', () => {
    expect(() => encodeRequestBody('capture', { capture_orders: [] }, { encoding: 'form' })).toThrow(
      expect.objectContaining({ code: 'GW_CONFIG', message: expect.stringContaining('declares its body as json') }),
    );
    expect(() => encodeRequestBody('authoriseCard', {}, { encoding: 'xml' as never })).toThrow(/json or form, not xml/);
  });
});
