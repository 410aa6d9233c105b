import { describe, expect, it } from 'vitest';
import { decodeAlternativeRespon, decodeCancelSubscription, decodeCardRespon, decodeCheckoutPage, decodeItems, decodeRespon } from '../src/index.ts';
import { buildRecordPlan } from '../src/element-plan.ts';
import { decodeRecord } from '../src/xml-record.ts';
import { decodeFailure } from './thrown.ts';

// Element and field names an attacker chooses: `__proto__` assigned with `record[name] = …` replaces the record's
// prototype, so the caller reads injected members as if the answer carried them.
const RESERVED = ['__proto__', 'constructor', 'prototype', 'toString', 'isPrototypeOf', 'hasOwnProperty'];
const xmlDecoders: Record<string, { root: string; decode: (xml: string) => unknown }> = {
  decodeRespon: { root: 'respon', decode: (xml) => decodeRespon(xml) },
  decodeCardRespon: { root: 'respon', decode: (xml) => decodeCardRespon(xml) },
  decodeAlternativeRespon: { root: 'respon', decode: (xml) => decodeAlternativeRespon(xml) },
  decodeCancelSubscription: { root: 'request', decode: (xml) => decodeCancelSubscription(xml) },
};

describe('XML decoders and JavaScript member names as element names', () => {
  for (const [decoder, { root, decode }] of Object.entries(xmlDecoders)) {
    it(`${decoder} refuses each with DecodeError 'reserved-name' naming the element, at the top and nested`, () => {
      for (const name of RESERVED) {
        for (const [xml, path] of [
          [`<${root}><${name}><polluted>yes</polluted></${name}></${root}>`, `${root}.${name}`],
          [`<${root}><${name}>text</${name}></${root}>`, `${root}.${name}`],
          [`<${root}><extra><${name}><polluted>yes</polluted></${name}></extra></${root}>`, `${root}.extra.${name}`],
          [`<${root}><extra><a>1</a><a><${name}>1</${name}></a></extra></${root}>`, `${root}.extra.a.${name}`],
          [`<${root}><g:${name} xmlns:g="u"><polluted>yes</polluted></g:${name}></${root}>`, `${root}.${name}`],
        ]) {
          const error = decodeFailure(() => decode(xml!));
          expect(error.failure, xml).toBe('reserved-name');
          expect(error.message).toContain(name);
          expect(error.path).toBe(path);
        }
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  it('refuses them as the root element too, also where any root is accepted', () => {
    for (const name of RESERVED) {
      const error = decodeFailure(() => decodeCancelSubscription(`<${name}><recurring_id>R1</recurring_id></${name}>`, { root: null }));
      expect(error.failure).toBe('reserved-name');
      expect(error.path).toBe(name);
    }
  });

  it("decodeRecord refuses a parsed `__proto__` member instead of letting it replace the record's prototype", () => {
    // What a parser that lets the name through hands over: an own member named `__proto__`.
    const parsed = JSON.parse('{"risk_score":"5","__proto__":{"polluted":"yes"},"extra":{"__proto__":{"polluted":"yes"}}}') as unknown;
    const plan = buildRecordPlan('CardRespon');
    const error = decodeFailure(() => decodeRecord(parsed, plan, 'respon'));
    expect(error.failure).toBe('reserved-name');
    expect(error.path).toBe('respon.__proto__');
    const nested = JSON.parse('{"extra":{"__proto__":{"polluted":"yes"}}}') as unknown;
    expect(decodeFailure(() => decodeRecord(nested, plan, 'respon')).path).toBe('respon.extra.__proto__');
  });
});

describe('decodeCheckoutPage with `__proto__` and `constructor` as field names', () => {
  it('keeps them as own data members of fields and allParams.params; the prototypes stay Object.prototype', () => {
    const page = decodeCheckoutPage(
      '<form action="/pay" method="post"><input type="hidden" name="__proto__" value=\'{"polluted":"yes"}\'>' +
        '<input type="hidden" name="constructor" value="c"><input type="hidden" name="allParams" value="__proto__=%7B%7D&amp;constructor=2&amp;order_no=1"></form>',
    );
    for (const record of [page.fields, page.allParams!.params] as Record<string, unknown>[]) {
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(record, '__proto__')).toMatchObject({ enumerable: true });
      expect(typeof Object.getOwnPropertyDescriptor(record, '__proto__')!.value).toBe('string');
      expect(typeof record.constructor).toBe('string');
      expect(record.polluted).toBeUndefined();
    }
    expect(Object.keys(page.allParams!.params)).toEqual(['__proto__', 'constructor', 'order_no']);
  });
});

describe('decodeItems with prototype names as components', () => {
  it('gives plain arrays of strings', () => {
    const [record] = decodeItems('__proto__#,#constructor#,#prototype#,#toString');
    expect(Object.getPrototypeOf(record)).toBe(Array.prototype);
    expect(record).toEqual(['__proto__', 'constructor', 'prototype', 'toString']);
  });
});
