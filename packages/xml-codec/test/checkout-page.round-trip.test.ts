import fc from 'fast-check';
import { checkoutForm, ValidationError } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { decodeCheckoutPage, encodeCheckoutPage, type FormEntry } from '../src/index.ts';
import { anyText, wireText } from './arbitraries.ts';

const ALL_PARAMS = checkoutForm.allParamsField;
const name = () => wireText().filter((n) => n !== ALL_PARAMS);
const entries = (text: () => fc.Arbitrary<string> = wireText) => fc.array(fc.tuple(name(), text()), { maxLength: 8 });

describe('checkout page round trip', () => {
  it('decodeCheckoutPage(encodeCheckoutPage(fields)) gives back every field in order, the action, POST and the auto-submit', () => {
    fc.assert(
      fc.property(entries(), wireText(), (fields, action) => {
        const page = decodeCheckoutPage(encodeCheckoutPage(fields, { action }));
        expect(page.action).toBe(action);
        expect(page.method).toBe('POST');
        expect(page.autoSubmit).toBe(true);
        expect(page.entries.slice(0, -1)).toEqual(fields);
        // allParams is computed from the other fields and parses back to them.
        expect(page.entries.at(-1)?.[0]).toBe(ALL_PARAMS);
        expect(page.allParams?.entries).toEqual(fields);
      }),
      { numRuns: 400 },
    );
  });

  it('takes a record too, skipping undefined fields, and keeps a given allParams verbatim', () => {
    const page = decodeCheckoutPage(encodeCheckoutPage({ orderNo: 'O1', note: undefined, allParams: 'raw=1&x' }, { action: '/pay' }));
    expect(page.entries).toEqual([
      ['orderNo', 'O1'],
      ['allParams', 'raw=1&x'],
    ]);
    expect(page.allParams?.params).toEqual({ raw: '1', x: '' });
  });

  it('still auto-submits when a field is named submit (it would shadow form.submit)', () => {
    const html = encodeCheckoutPage([['submit', 'x'] as FormEntry], { action: '/pay' });
    expect(html).toContain('HTMLFormElement.prototype.submit.call(');
    expect(decodeCheckoutPage(html).autoSubmit).toBe(true);
  });

  it('on any string either round-trips or refuses to encode with ValidationError', () => {
    fc.assert(
      fc.property(entries(anyText), (fields) => {
        let html: string;
        try {
          html = encodeCheckoutPage(fields, { action: '/pay' });
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          return;
        }
        expect(decodeCheckoutPage(html).entries.slice(0, -1)).toEqual(fields);
      }),
      { numRuns: 400 },
    );
  });
});
