import { operations, RecordValidator, specSchema, type OperationName } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { answerExamples } from '../src/generated/answer-examples.gen.ts';
import { echoRecord } from '../src/operations/echo.ts';
import { answeredExactly, fillFromSpec } from '../src/operations/fill-from-spec.ts';

const validator = new RecordValidator();

// A capture answer as the handler writes it, and the operation's answer as the spec shows it after a field was added
// to capture results (what `pnpm generate` puts in answerExamples for a `settlement_date` with `format: date`).
const handlerAnswer = () => ({
  merchant_id: 'M1',
  return_status: '1',
  capture_orders: [
    { transaction_id: 'T-1', order_no: 'A-1', currency: 'USD', amount: '1.00', capture_status: '1', error_message: '' },
    { transaction_id: 'T-2', order_no: 'A-2', currency: 'USD', amount: '2.00', capture_status: '0', error_message: 'E201:order not found for this merchant' },
  ],
});
const exampleWithField = {
  ...answerExamples.capture,
  capture_orders: [{ ...(answerExamples.capture.capture_orders as Record<string, unknown>[])[0], settlement_date: '2026-01-01' }],
};
const sources = (request: Record<string, unknown>) => ({
  example: exampleWithField,
  echo: echoRecord(specSchema.named('CaptureResponse'), request),
  request: specSchema.named('CaptureRequest'),
});

describe('a stateful answer: members no handler rule decides', () => {
  it('a member the spec added since (no rule for it) is filled in every element from the spec', () => {
    const answer = fillFromSpec(handlerAnswer(), sources({ capture_orders: [{ order_no: 'A-1' }, { order_no: 'A-2' }] }));
    const elements = answer.capture_orders as Record<string, unknown>[];
    expect(elements.map((element) => element.settlement_date)).toEqual(['2026-01-01', '2026-01-01']);
    // What the handler decided stays as it is.
    expect(elements[1]).toMatchObject({ capture_status: '0', error_message: 'E201:order not found for this merchant', amount: '2.00' });
    expect(answer).toMatchObject({ merchant_id: 'M1', return_status: '1' });
  });

  it('a member the request could carry is echoed when it does, and left out when it does not (never the example value)', () => {
    const echoed = fillFromSpec({ capture_orders: [{ capture_status: '1' }] }, sources({ capture_orders: [{ order_no: 'A-9', amount: '9.00' }] }));
    expect((echoed.capture_orders as Record<string, unknown>[])[0]).toEqual({
      capture_status: '1',
      order_no: 'A-9',
      amount: '9.00',
      error_message: expect.any(String),
      settlement_date: '2026-01-01',
    });
    expect((echoed.capture_orders as Record<string, unknown>[])[0]).not.toHaveProperty('transaction_id');
  });

  it('a member a handler sets to undefined stays out; a record answered exactly gets nothing added', () => {
    const answer = fillFromSpec(
      { capture_orders: [{ capture_status: '0', settlement_date: undefined }, answeredExactly({ order_no: 'X', capture_status: '0' })] },
      sources({}),
    );
    expect(answer.capture_orders).toEqual([
      { capture_status: '0', error_message: expect.any(String) },
      { order_no: 'X', capture_status: '0' },
    ]);
  });

  it("the answer is a new record: the handler's is not changed", () => {
    const original = handlerAnswer();
    fillFromSpec(original, sources({}));
    expect(original).toEqual(handlerAnswer());
  });
});

describe('answerExamples (generated from spec/v1/examples and the schemas)', () => {
  it.each(Object.keys(operations) as OperationName[])('%s: its answer example is valid against its response schema, with no signature', (name) => {
    expect(validator.problems(operations[name].responseSchema, answerExamples[name])).toEqual([]);
    expect(JSON.stringify(answerExamples[name])).not.toMatch(/"encryption_data":/);
  });
});
