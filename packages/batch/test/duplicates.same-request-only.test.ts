import { describe, expect, it } from 'vitest';
import { claimKeyOf, DuplicateIndex, orderIdentity } from '../src/order-key.ts';

describe('an input order is a duplicate only when it would be the same request', () => {
  it('capture: the same transaction_id again is the same order, whatever order_no or amount the row gives', () => {
    const seen = new DuplicateIndex('capture');
    expect(seen.remember({ transaction_id: 'T1', order_no: 'O1', amount: '1.00' }, 0)).toBeUndefined();
    expect(seen.remember({ transaction_id: 'T1', order_no: 'O1', amount: '2.00' }, 1)).toBe(0);
    expect(seen.remember({ transaction_id: 'T1', order_no: 'O2' }, 2)).toBe(0);
    // One order_no under two transaction_ids: two payments, two orders.
    expect(seen.remember({ transaction_id: 'T2', order_no: 'O1' }, 3)).toBeUndefined();
    expect(seen.remember({ transaction_id: 'T2', order_no: 'O9' }, 4)).toBe(3);
    // Orders named by order_no alone are told apart by it.
    expect(seen.remember({ order_no: 'N1' }, 5)).toBeUndefined();
    expect(seen.remember({ order_no: 'N2' }, 6)).toBeUndefined();
    expect(seen.remember({ order_no: 'N1' }, 7)).toBe(5);
  });

  it('refund: a second refund of one order is legitimate unless amount and reason repeat too', () => {
    const seen = new DuplicateIndex('refund');
    const refund = { transaction_id: 'T9', order_no: 'O9', refund_amount: '5.00', refund_reason: 'a' };
    expect(seen.remember(refund, 0)).toBeUndefined();
    expect(seen.remember({ ...refund, refund_reason: 'b' }, 1)).toBeUndefined();
    expect(seen.remember({ ...refund, refund_amount: '6.00' }, 2)).toBeUndefined();
    expect(seen.remember({ ...refund }, 3)).toBe(0);
    expect(seen.remember({ ...refund, refund_reason: 'b' }, 4)).toBe(1);
  });

  it('long values are compared by fingerprint: equal ones match, ones differing in the last character do not', () => {
    const seen = new DuplicateIndex('capture');
    const long = `T${'x'.repeat(200)}`;
    expect(seen.remember({ transaction_id: `${long}1`, order_no: `${long}A` }, 0)).toBeUndefined();
    expect(seen.remember({ transaction_id: `${long}2`, order_no: `${long}A` }, 1)).toBeUndefined();
    expect(seen.remember({ transaction_id: `${long}1`, order_no: `${long}B` }, 2)).toBe(0);
    expect(seen.remember({ order_no: `${long}A` }, 3)).toBeUndefined();
    expect(seen.remember({ order_no: `${long}B` }, 4)).toBeUndefined();
    expect(seen.remember({ order_no: `${long}A` }, 5)).toBe(3);
  });

  it('is one identity: the duplicate key inside a batch is the claim key across the batches of a ledger, for every operation that moves money', () => {
    const rows = [
      { transaction_id: 'T1', order_no: 'O1' },
      { transaction_id: 'T1', order_no: 'O2', amount: '9' },
      { order_no: 'N1' },
      { transaction_id: '', order_no: 'N1' },
    ];
    for (const operation of ['capture', 'cancel', 'review'] as const) {
      for (const row of rows) expect(claimKeyOf(operation, row)).toBe(orderIdentity(operation, row));
    }
    const refund = { transaction_id: 'T1', order_no: 'O1', refund_amount: '3.00', refund_reason: 'r' };
    expect(claimKeyOf('refund', refund)).toBe(orderIdentity('refund', { ...refund, order_no: 'O2', refund_amount: '3' }));
    expect(claimKeyOf('query', refund)).toBeNull();
  });
});
