// A name the spec does not list is not a field, and card data goes only where the spec carries it.
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_DEPTH, RecordValidator, ValidationError } from '../src/index.ts';

const validator = new RecordValidator();
const order = { transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '10.00' };
const CARD = '4111111111111111';

describe('RecordValidator refuses names the spec does not list', () => {
  it('a misspelt batch element member is refused with the closest known name', () => {
    const { amount: _amount, ...rest } = order;
    const problems = validator.requestProblems('capture', { capture_orders: [{ ...rest, amout: '10.00' }] });
    expect(problems).toEqual([expect.objectContaining({ pointer: '/capture_orders/0/amout', field: 'capture_orders[0].amout', keyword: 'unknown' })]);
    expect(problems[0]!.message).toContain('did you mean `amount`?');
  });

  it('every unknown name at every level at once: top level, batch elements, subscription, person, beneficiary', () => {
    const capture = validator.requestProblems('capture', { capture_orderz: [], capture_orders: [order, { ...order, ordr_no: 'x' }] });
    expect(capture.map((p) => `${p.field}:${p.keyword}`)).toEqual(['capture_orderz:unknown', 'capture_orders[1].ordr_no:unknown']);
    expect(capture[0]!.message).toContain('did you mean `capture_orders`?');
    const checkout = validator.requestProblems('checkout', {
      order_no: 'O1',
      amount: '1.00',
      subscription: { contract_nmae: 'C', interval: 'month', zzzz: 1 },
    });
    expect(checkout.map((p) => p.field).sort()).toEqual(['subscription.contract_nmae', 'subscription.zzzz']);
    expect(checkout.find((p) => p.field === 'subscription.contract_nmae')!.message).toContain('`contract_name`');
    expect(checkout.find((p) => p.field === 'subscription.zzzz')!.message).not.toContain('did you mean');
    const alternative = validator.requestProblems('authoriseAlternative', { order_no: 'O', payment_method: 'PIX', person: { emial: 'a@b.c' } });
    expect(alternative.map((p) => p.field)).toEqual(['person.emial']);
    expect(alternative[0]!.message).toContain('`email`');
    const payout = validator.requestProblems('payout', { beneficiary: { first_nme: 'A' }, constructor: 1, ['__proto__']: 2 });
    expect(payout.map((p) => p.field).sort()).toEqual(['__proto__', 'beneficiary.first_nme', 'constructor']);
  });

  it('one order object given twice in a request is checked at both places, each problem named at its own pointer', () => {
    const misspelt = { ...order, ordr_no: 'x', card: CARD };
    const problems = validator.requestProblems('capture', { capture_orders: [misspelt, order, misspelt] });
    expect(problems.map((p) => `${p.field}:${p.keyword}`).sort()).toEqual([
      'capture_orders[0].card:card-data',
      'capture_orders[0].ordr_no:unknown',
      'capture_orders[2].card:card-data',
      'capture_orders[2].ordr_no:unknown',
    ]);
    expect(JSON.stringify(problems)).not.toContain(CARD);
  });

  it('names reached through $ref and allOf are known (PaymentOrder fields of the card request)', () => {
    expect(
      validator.requestProblems('authoriseCard', {
        order_no: 'O1',
        amount: '1.00',
        currency: 'USD',
        card: CARD,
        security_code: '737',
        expiration_month: '12',
        expiration_year: '2031',
      }),
    ).toEqual([]);
  });

  it("unknownFields: 'allow' accepts unknown names but still refuses card data, never echoing it", () => {
    expect(validator.requestProblems('capture', { capture_orders: [{ ...order, extra: 'x' }], note: 'y' }, { unknownFields: 'allow' })).toEqual([]);
    for (const [operation, record] of [
      ['checkout', { order_no: 'O1', amount: '1.00', card: CARD, security_code: '737' }],
      ['capture', { capture_orders: [{ ...order, card: CARD }] }],
      ['payout', { beneficiary: { expiration_month: '12' } }],
      ['capture', { capture_orders: [order], extra: { deep: { card: CARD } } }],
    ] as const) {
      for (const unknownFields of ['refuse', 'allow'] as const) {
        const problems = validator.requestProblems(operation, record, { unknownFields });
        expect(problems.filter((p) => p.keyword === 'card-data').length).toBeGreaterThan(0);
        const error = new ValidationError(operation, 'x', problems);
        expect(JSON.stringify(error)).not.toContain(CARD);
        expect(error.message).not.toContain(CARD);
      }
    }
  });

  it('a record nested 100,000 deep or containing itself is one typed problem, no recursion', () => {
    let deep: Record<string, unknown> = { amount: '1.00' };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const problems = validator.requestProblems('capture', { capture_orders: [order], extra: deep }, { unknownFields: 'allow' });
    expect(problems.map((p) => p.keyword)).toEqual(['depth']);
    expect(problems[0]!.message).toContain(String(MAX_RECORD_DEPTH));
    const cyclic: Record<string, unknown> = { capture_orders: [{ ...order }] };
    (cyclic.capture_orders as Record<string, unknown>[])[0]!.self = cyclic;
    expect(validator.requestProblems('capture', cyclic, { unknownFields: 'allow' }).map((p) => p.keyword)).toEqual(['cycle']);
  });
});
