import fc from 'fast-check';
import { operations, ValidationError, xmlRequestRoot } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { buildRecordPlan } from '../src/element-plan.ts';
import { decodeCancelSubscription, DecodeError, encodeCancelSubscription } from '../src/index.ts';
import { recordFor } from './arbitraries.ts';

const plan = buildRecordPlan(operations.cancelSubscription.requestSchema);
const record = { merchant_id: 'M1', account_id: 'A1', recurring_id: 'R1', contract_name: 'Gold & Silver', encryption_data: 'sig' };

describe('cancel-subscription XML body', () => {
  it('is written under the default root `request` with the §2.7 fields in spec order (UNKNOWNS U35)', () => {
    expect(xmlRequestRoot).toBe('request');
    const shuffled = { encryption_data: 'sig', contract_name: 'Gold & Silver', recurring_id: 'R1', account_id: 'A1', merchant_id: 'M1' };
    expect(encodeCancelSubscription(shuffled)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<request><merchant_id>M1</merchant_id><account_id>A1</account_id><recurring_id>R1</recurring_id><contract_name>Gold &amp; Silver</contract_name><encryption_data>sig</encryption_data></request>',
    );
  });

  it('decode(encode(x)) equals x for any record, with the default or a configured root', () => {
    fc.assert(
      fc.property(recordFor(plan), fc.constantFrom(undefined, 'cancelsubscription', 'xml_request'), (input, root) => {
        expect(decodeCancelSubscription(encodeCancelSubscription(input, { root }), { root })).toStrictEqual(input);
      }),
      { numRuns: 300 },
    );
  });

  it('requires the configured root when decoding, and accepts any root with root: null', () => {
    const xml = encodeCancelSubscription(record, { root: 'cancel' });
    expect(xml).toContain('<cancel>');
    expect(() => decodeCancelSubscription(xml)).toThrow(DecodeError);
    expect(() => decodeCancelSubscription(xml)).toThrow(expect.objectContaining({ details: { format: 'xml', failure: 'root', path: 'cancel' } }));
    expect(decodeCancelSubscription(xml, { root: null })).toStrictEqual(record);
  });

  it('refuses a root name that is not an XML name', () => {
    expect(() => encodeCancelSubscription(record, { root: 'not a name' })).toThrow(ValidationError);
  });
});
