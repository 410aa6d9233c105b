import { describe, expect, it } from 'vitest';
import { RecordValidator, ValidationError } from '../src/index.ts';

const validator = new RecordValidator();
const orders = (n: number) => Array.from({ length: n }, (_, i) => ({ transaction_id: `T${i}`, order_no: `O${i}`, currency: 'USD', amount: '10.00' }));

function problemsOf(operation: Parameters<RecordValidator['requestProblems']>[0], record: unknown) {
  return validator.requestProblems(operation, record).map((p) => `${p.field}:${p.keyword}`);
}

describe('request validation keeps every constraint the spec states', () => {
  it('refuses 12.345 as an amount, naming the field', () => {
    expect(problemsOf('authoriseCard', { amount: '12.345' })).toEqual(['amount:pattern']);
    expect(problemsOf('authoriseCard', { amount: '12.34' })).toEqual([]);
  });

  it('refuses 51 capture orders and accepts 50', () => {
    expect(problemsOf('capture', { capture_orders: orders(51) })).toEqual(['capture_orders:maxItems']);
    expect(problemsOf('capture', { capture_orders: orders(50) })).toEqual([]);
  });

  it('refuses 101 review orders and 51 refunds and cancels', () => {
    const review = orders(101).map((o) => ({ ...o, review_flag: '1' }));
    expect(problemsOf('review', { review_orders: review })).toEqual(['review_orders:maxItems']);
    expect(problemsOf('refund', { refund_orders: orders(51) })).toEqual(['refund_orders:maxItems']);
    expect(problemsOf('cancel', { cancel_orders: orders(51) })).toEqual(['cancel_orders:maxItems']);
  });

  it('refuses 1.5 as checkout_time (an integer)', () => {
    expect(problemsOf('authoriseCard', { checkout_time: 1.5 })).toEqual(['checkout_time:type']);
    expect(problemsOf('checkout', { checkout_time: 1700000000 })).toEqual([]);
  });

  it('refuses usd as a currency', () => {
    expect(problemsOf('authoriseCard', { currency: 'usd' })).toEqual(['currency:pattern']);
    expect(problemsOf('payout', { payment_currency: 'usd' })).toEqual(['payment_currency:pattern']);
  });

  it('refuses 2026-1-1 as a birth date', () => {
    expect(problemsOf('authoriseCard', { birth_date: '2026-1-1' })).toEqual(['birth_date:pattern']);
    expect(problemsOf('authoriseCard', { birth_date: '01-02-1990' })).toEqual([]);
  });

  it('refuses other stated formats: countries, month, year, request_id, nested amounts', () => {
    expect(problemsOf('authoriseCard', { billing_country: 'USA', expiration_month: '13', expiration_year: '26' })).toEqual([
      'billing_country:pattern',
      'expiration_month:pattern',
      'expiration_year:pattern',
    ]);
    expect(problemsOf('payout', { request_id: 'not-a-uuid' })).toEqual(['request_id:pattern']);
    expect(problemsOf('capture', { capture_orders: [{ amount: '1,00' }] })).toEqual(['capture_orders[0].amount:pattern']);
  });

  it('accepts any value of an open set and every field being absent', () => {
    expect(problemsOf('authoriseCard', { open3d: 'somethingNew', device_type: 'MOBILE' })).toEqual([]);
    expect(problemsOf('authoriseCard', {})).toEqual([]);
  });

  it('names every problem at once in one ValidationError, without the offending values', () => {
    const record = { amount: '12.345', currency: 'usd', birth_date: '2026-1-1', checkout_time: 1.5, card: '4111111111111111', expiration_month: '1' };
    let caught: unknown;
    try {
      validator.assertRequest('authoriseCard', record);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const error = caught as ValidationError;
    expect(error.code).toBe('GW_VALIDATION');
    expect(error.details.problems.map((p) => p.field).sort()).toEqual(['amount', 'birth_date', 'checkout_time', 'currency', 'expiration_month']);
    const serialised = JSON.stringify(error) + error.message + String(error.stack);
    for (const value of ['12.345', 'usd', '2026-1-1', '4111111111111111']) expect(serialised).not.toContain(value);
  });
});
