import fc from 'fast-check';
import { operations, ValidationError } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { buildRecordPlan } from '../src/element-plan.ts';
import { decodeAlternativeRespon, decodeCardRespon, decodeRespon, encodeRespon } from '../src/index.ts';
import { anyText, recordFor } from './arbitraries.ts';

const cardPlan = buildRecordPlan(operations.authoriseCard.responseSchema);
const alternativePlan = buildRecordPlan(operations.authoriseAlternative.responseSchema);

describe('respon round trip', () => {
  it('decodeCardRespon(encodeRespon(x)) equals x for any card record', () => {
    fc.assert(
      fc.property(recordFor(cardPlan), (record) => {
        expect(decodeCardRespon(encodeRespon(record, { variant: 'card' }))).toStrictEqual(record);
      }),
      { numRuns: 500 },
    );
  });

  it('decodeRespon(encodeRespon(x)) equals x and names the variant for any alternative record with issuer_url', () => {
    fc.assert(
      fc.property(recordFor(alternativePlan), fc.string(), (record, issuerUrl) => {
        const withUrl = { ...record, issuer_url: issuerUrl };
        expect(decodeRespon(encodeRespon(withUrl))).toStrictEqual({ variant: 'alternative', respon: withUrl });
        expect(decodeAlternativeRespon(encodeRespon(withUrl))).toStrictEqual(withUrl);
      }),
      { numRuns: 300 },
    );
  });

  it('on any string either round-trips exactly or refuses to encode with ValidationError', () => {
    fc.assert(
      fc.property(recordFor(cardPlan, anyText), (record) => {
        let xml: string;
        try {
          xml = encodeRespon(record, { variant: 'card' });
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          return;
        }
        expect(decodeCardRespon(xml)).toStrictEqual(record);
      }),
      { numRuns: 500 },
    );
  });
});
