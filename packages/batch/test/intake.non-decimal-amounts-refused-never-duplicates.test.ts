import { describe, expect, it } from 'vitest';
import { OrderIntake } from '../src/intake/order-intake.ts';
import { claimKeyOf, DuplicateIndex } from '../src/order-key.ts';
import type { PendingOrder } from '../src/send/pending-order.ts';

const refund = (index: number, refund_amount: unknown): PendingOrder => ({
  index,
  resends: 0,
  order: { transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '10.00', refund_amount, refund_reason: 'damaged' } as PendingOrder['order'],
});

const PATTERN = { field: 'refund_amount', pointer: '/refund_amount', keyword: 'pattern', message: 'does not match the format ^\\d+(\\.\\d+)?$' };
const TYPE = { field: 'refund_amount', pointer: '/refund_amount', keyword: 'type', message: 'must be of type string' };

// What the spec's DecimalAmount (`^\d+(\.\d+)?$`) refuses, checked by the existing RecordValidator: none is a decimal.
const NOT_DECIMALS: [unknown, typeof PATTERN | typeof TYPE][] = [
  ['3,00', PATTERN],
  ['3.', PATTERN],
  [' 3', PATTERN],
  ['-3', PATTERN],
  ['1e2', PATTERN],
  ['.5', PATTERN],
  ['+3', PATTERN],
  ['3.00\n', PATTERN],
  ['٣', PATTERN],
  ['', PATTERN],
  [3, TYPE],
  [null, TYPE],
];

describe('a refund whose amount is no decimal is refused with its problems, never as a duplicate', () => {
  it('intake already refuses 3,00, 3., " 3", -3, 1e2 (and .5, +3, a newline, a non-ASCII digit, empty, a number, null) for the spec\'s format', () => {
    for (const [amount, problem] of NOT_DECIMALS) {
      const intake = new OrderIntake('refund');
      // The runner's path: admission (card data, duplicates), then the chunk's member check.
      expect(intake.admission(refund(0, amount)), JSON.stringify(amount)).toBeNull();
      expect(intake.chunkRefusals([refund(0, amount)])[0]?.problems, JSON.stringify(amount)).toEqual([problem]);
      // The PostgreSQL ledger intake's path: both in one.
      expect(new OrderIntake('refund').refusal(refund(0, amount))?.problems, JSON.stringify(amount)).toEqual([problem]);
    }
  });

  it('after a valid refund of 3.00, the same refund with a non-decimal amount is refused for its format, not reported a duplicate', () => {
    const intake = new OrderIntake('refund');
    expect(intake.refusal(refund(0, '3.00'))).toBeNull();
    NOT_DECIMALS.forEach(([amount, problem], i) => {
      const refusal = intake.refusal(refund(i + 1, amount));
      expect(refusal?.reason, JSON.stringify(amount)).not.toMatch(/duplicate/);
      expect(refusal?.problems, JSON.stringify(amount)).toEqual([problem]);
    });
    // Still a duplicate of the first when written another way.
    expect(intake.refusal(refund(99, '03.0'))?.reason).toMatch(
      /^duplicate of input order #0 \(the same transaction_id .*, refund_amount and refund_reason\): not sent twice$/,
    );
  });

  it('two refunds with the same non-decimal amount are each refused with their problems; a valid one after them is no duplicate of either', () => {
    const intake = new OrderIntake('refund');
    expect(intake.refusal(refund(0, '3,00'))?.problems).toEqual([PATTERN]);
    expect(intake.refusal(refund(1, '3,00'))?.problems).toEqual([PATTERN]);
    expect(intake.refusal(refund(2, '3'))).toBeNull();
    const seen = new DuplicateIndex('refund');
    expect(seen.remember(refund(0, ' 3').order, 0)).toBeUndefined();
    expect(seen.remember(refund(1, ' 3').order, 1)).toBeUndefined();
    expect(seen.remember(refund(2, '3').order, 2)).toBeUndefined();
    expect(seen.remember(refund(3, '3.0').order, 3)).toBe(2);
  });

  it('an absent amount (every field is optional, U05) is one value: a second such refund is a duplicate, as before', () => {
    const seen = new DuplicateIndex('refund');
    const { refund_amount: _, ...absent } = refund(0, undefined).order;
    expect(seen.remember(absent, 0)).toBeUndefined();
    expect(seen.remember({ ...absent }, 1)).toBe(0);
    expect(seen.remember({ ...absent, refund_amount: '0' }, 2)).toBeUndefined();
  });

  it('claim keys: every spelling of one value gives one key; a non-decimal amount gives none (intake refuses it before any claim)', () => {
    const keyOf = (refund_amount: unknown) => claimKeyOf('refund', refund(0, refund_amount).order);
    expect(new Set(['3', '3.0', '3.00', '03.000'].map(keyOf)).size).toBe(1);
    expect(keyOf('3.01')).not.toBe(keyOf('3'));
    for (const [amount] of NOT_DECIMALS) expect(keyOf(amount), JSON.stringify(amount)).toBeNull();
    expect(keyOf('3\u0000x')).toBeNull();
    // Three parts (id, amount, reason).
    expect(keyOf('3')!.split('\u0000')).toHaveLength(3);
    // Capture keys on the transaction alone: its amount is the order's, not a sum to move (U25).
    expect(claimKeyOf('capture', { transaction_id: 'T1', amount: '10.00' })).toBe(claimKeyOf('capture', { transaction_id: 'T1', amount: '9' }));
  });
});
