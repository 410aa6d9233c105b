import fc from 'fast-check';
import type { AlternativeAuthoriseRequest, CaptureRequest, CardAuthoriseRequest } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { flattenRecord, SignableMessageError } from '../src/index.ts';

describe('flattenRecord', () => {
  it('writes field paths with [index] for arrays and dots for objects, keys such as "the service" as they are', () => {
    const capture = {
      merchant_id: 'M100200',
      capture_orders: [
        { transaction_id: 'T1', amount: '129.90' },
        { transaction_id: 'T2', amount: '45.00' },
      ],
    } satisfies CaptureRequest;
    expect(flattenRecord(capture)).toEqual([
      { path: 'merchant_id', value: 'M100200' },
      { path: 'capture_orders[0].transaction_id', value: 'T1' },
      { path: 'capture_orders[0].amount', value: '129.90' },
      { path: 'capture_orders[1].transaction_id', value: 'T2' },
      { path: 'capture_orders[1].amount', value: '45.00' },
    ]);
    const alternative = {
      'the service': 'Acme Gadgets',
      person: { documents: { labels: { bank_account: { bank: { code: '341' } } } } },
    } satisfies AlternativeAuthoriseRequest;
    expect(flattenRecord(alternative).map((f) => f.path)).toEqual(['the service', 'person.documents.labels.bank_account.bank.code']);
    expect(flattenRecord({ matrix: [['a', 'b'], ['c']] }).map((f) => f.path)).toEqual(['matrix[0][0]', 'matrix[0][1]', 'matrix[1][0]']);
  });

  it("keeps the record's own key order instead of sorting", () => {
    expect(flattenRecord({ order_no: '1', amount: '2', currency: 'USD' }).map((f) => f.path)).toEqual(['order_no', 'amount', 'currency']);
  });

  it('gives strings as they are, numbers and booleans as JSON text, null as ""', () => {
    const record = { s: ' 0.10 ', n: 89.9, i: 1718003200, big: 1e21, negZero: -0, t: true, f: false, nil: null };
    expect(Object.fromEntries(flattenRecord(record).map((f) => [f.path, f.value]))).toEqual({
      s: ' 0.10 ',
      n: '89.9',
      i: '1718003200',
      big: '1e+21',
      negZero: '0',
      t: 'true',
      f: 'false',
      nil: '',
    });
  });

  it('gives no pair for empty arrays and empty objects, so they flatten like absent fields', () => {
    const card = { cart_items: [], subscription: {}, account_owner: [{}], note: '' } satisfies CardAuthoriseRequest;
    expect(flattenRecord(card)).toEqual([{ path: 'note', value: '' }]);
  });

  it('leaves out encryption_data at every level, and only that key', () => {
    const record = {
      encryption_data: 'top',
      merchant_id: 'M1',
      capture_orders: [{ encryption_data: 'nested', amount: '1.00' }],
      payer: { address: { encryption_data: '', city: 'encryption_data' } },
      encryption_data_note: 'kept',
    };
    expect(flattenRecord(record)).toEqual([
      { path: 'merchant_id', value: 'M1' },
      { path: 'capture_orders[0].amount', value: '1.00' },
      { path: 'payer.address.city', value: 'encryption_data' },
      { path: 'encryption_data_note', value: 'kept' },
    ]);
  });

  it('skips undefined members and writes undefined array elements as "" (as JSON writes them as null)', () => {
    expect(flattenRecord({ a: undefined, b: ['x', undefined, 'z'] })).toEqual([
      { path: 'b[0]', value: 'x' },
      { path: 'b[1]', value: '' },
      { path: 'b[2]', value: 'z' },
    ]);
    // A hole in a sparse array counts like undefined.
    expect(flattenRecord({ b: ['x', , 'z'] }).map((f) => f.path)).toEqual(['b[0]', 'b[1]', 'b[2]']);
  });

  it.each([
    ['a bigint', { card: 4111111111111111n }, 'card', 'bigint'],
    ['NaN', { amount: Number.NaN }, 'amount', 'NaN'],
    ['Infinity', { orders: [{ amount: Number.POSITIVE_INFINITY }] }, 'orders[0].amount', 'Infinity'],
    ['a Date', { payment_date: new Date(0) }, 'payment_date', 'Date'],
    ['a Map', { person: { documents: new Map() } }, 'person.documents', 'Map'],
    ['a function', { notify: () => 'x' }, 'notify', 'function'],
    ['a symbol', { s: Symbol('x') }, 's', 'symbol'],
  ])('refuses %s with a SignableMessageError naming the path, never the value', (_, record, path, valueType) => {
    let caught: unknown;
    try {
      flattenRecord(record);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SignableMessageError);
    const error = caught as SignableMessageError;
    expect(error).toMatchObject({ name: 'SignableMessageError', code: 'GW_SIGNATURE', details: { path, valueType } });
    expect(JSON.stringify(error.toJSON()) + error.message).not.toContain('4111111111111111');
  });

  it('refuses a circular record and a record that is not a plain object', () => {
    const cyclic: Record<string, unknown> = { merchant_id: 'M1', payer: {} };
    (cyclic.payer as Record<string, unknown>).back = cyclic;
    expect(() => flattenRecord(cyclic)).toThrow(/circular reference/);
    expect(() => flattenRecord([{ a: '1' }])).toThrow(SignableMessageError);
    expect(() => flattenRecord(new Date())).toThrow(SignableMessageError);
    expect(() => flattenRecord(4111111111111111 as unknown as object)).toThrow('the record must be a plain object, not number.');
    // A shared (not circular) object is fine, as it is for JSON.
    const address = { city: 'Shenzhen' };
    expect(flattenRecord({ beneficiary: { address }, payer: { address } })).toHaveLength(2);
  });

  it('gives the same pairs for a record and for the JSON decoding of its encoded body', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const record = fc.dictionary(fc.string(), fc.oneof(value, fc.array(value), fc.dictionary(fc.string(), fc.oneof(value, fc.array(value)))));
    fc.assert(
      fc.property(record, (r) => {
        expect(flattenRecord(JSON.parse(JSON.stringify(r)) as object)).toEqual(flattenRecord(r));
      }),
      { numRuns: 200 },
    );
  });
});
