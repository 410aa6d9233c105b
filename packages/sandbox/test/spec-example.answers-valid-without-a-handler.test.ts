import { readFileSync } from 'node:fs';
import { operations, RecordValidator, secretFields, type OperationName, type OperationSpec } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { specExampleAnswer } from '../src/operations/spec-example.ts';
import { HANDLERS } from '../src/server/routes.ts';

const validator = new RecordValidator();
const names = Object.keys(operations) as OperationName[];

// The spec's example request of each operation (spec/v1/examples), as the wire carries it.
function exampleRequest(name: OperationName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../../spec/v1/examples/${name}.request.json`, import.meta.url), 'utf8'));
}

describe('an operation without a stateful handler gets an answer built from the spec (UNKNOWNS U53)', () => {
  it('the handler table covers every operation of the generated table', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual([...names].sort());
  });

  it.each(names.filter((name) => operations[name].responseEncoding !== 'html'))('%s: the built answer is valid against its response schema', (name) => {
    const op: OperationSpec = operations[name];
    const request = exampleRequest(name);
    const answer = specExampleAnswer(op, request);
    expect(validator.problems(op.responseSchema, answer)).toEqual([]);
    // Members the response shares with the request echo the request's values (§2.6).
    for (const field of ['merchant_id', 'account_id', 'order_no', 'request_id']) {
      if (field in answer && typeof request[field] === 'string') expect(answer[field]).toBe(request[field]);
    }
    expect(answer).not.toHaveProperty('encryption_data');
  });

  it('batch answers carry one element per request element, echoing its identifiers', () => {
    const request = exampleRequest('capture');
    const answer = specExampleAnswer(operations.capture, request);
    const sent = request.capture_orders as Record<string, unknown>[];
    const got = answer.capture_orders as Record<string, unknown>[];
    expect(got).toHaveLength(sent.length);
    got.forEach((element, i) => expect(element).toMatchObject({ order_no: sent[i]!.order_no, transaction_id: sent[i]!.transaction_id }));
  });

  it('never echoes card data, even where the response schema would accept the name', () => {
    const request = { ...exampleRequest('authoriseCard'), card: '4111111111111111', security_code: '737', expiration_month: '12', expiration_year: '2031' };
    const text = JSON.stringify(specExampleAnswer(operations.authoriseCard, request));
    for (const field of secretFields) expect(text).not.toContain(`"${field}"`);
    expect(text).not.toContain('4111111111111111');
  });
});
