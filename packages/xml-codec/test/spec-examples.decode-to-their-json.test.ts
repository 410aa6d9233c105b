import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeAlternativeRespon,
  decodeCancelSubscription,
  decodeCardRespon,
  decodeCheckoutPage,
  decodeItems,
  decodeRespon,
  encodeCancelSubscription,
  encodeRespon,
} from '../src/index.ts';

const examples = join(import.meta.dirname, '../../../spec/v1/examples');
const text = (name: string): string => readFileSync(join(examples, name), 'utf8');
const json = (name: string): unknown => JSON.parse(text(name));

describe('spec/v1/examples', () => {
  it('authoriseCard.response.xml decodes to authoriseCard.response.json, risk_score as a number', () => {
    const decoded = decodeCardRespon(text('authoriseCard.response.xml'));
    expect(decoded).toStrictEqual(json('authoriseCard.response.json'));
    expect(typeof decoded.risk_score).toBe('number');
    expect(decodeRespon(text('authoriseCard.response.xml'))).toStrictEqual({ variant: 'card', respon: json('authoriseCard.response.json') });
  });

  it('authoriseAlternative.response.xml decodes to authoriseAlternative.response.json as the alternative variant', () => {
    expect(decodeAlternativeRespon(text('authoriseAlternative.response.xml'))).toStrictEqual(json('authoriseAlternative.response.json'));
    expect(decodeRespon(text('authoriseAlternative.response.xml'))).toStrictEqual({
      variant: 'alternative',
      respon: json('authoriseAlternative.response.json'),
    });
  });

  it('cancelSubscription.request.xml decodes to cancelSubscription.request.json', () => {
    expect(decodeCancelSubscription(text('cancelSubscription.request.xml'))).toStrictEqual(json('cancelSubscription.request.json'));
  });

  it('checkout.response.html decodes to checkout.response.json, auto-submitting by POST', () => {
    const page = decodeCheckoutPage(text('checkout.response.html'));
    expect({ ...page.fields }).toStrictEqual(json('checkout.response.json'));
    expect(page.method).toBe('POST');
    expect(page.autoSubmit).toBe(true);
    expect(page.action).toMatch(/^https:\/\//);
    // allParams carries the other fields, so its parsed parameters agree with them.
    const params = page.allParams?.params ?? {};
    expect(Object.keys(params).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(params)) expect(page.fields[name]).toBe(value);
    // Its items field is in the #,# / #;# format.
    expect(decodeItems(page.fields.items ?? '')).toHaveLength(1);
  });

  it('re-encodes the example records to documents that decode to the same records', () => {
    const card = json('authoriseCard.response.json') as Record<string, unknown>;
    const alternative = json('authoriseAlternative.response.json') as Record<string, unknown>;
    const cancel = json('cancelSubscription.request.json') as Record<string, unknown>;
    expect(decodeCardRespon(encodeRespon(card))).toStrictEqual(card);
    expect(decodeRespon(encodeRespon(alternative))).toStrictEqual({ variant: 'alternative', respon: alternative });
    expect(decodeCancelSubscription(encodeCancelSubscription(cancel))).toStrictEqual(cancel);
  });
});
