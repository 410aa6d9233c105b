import { describe, expect, it } from 'vitest';
import { decodeCheckoutPage, DecodeError } from '../src/index.ts';
import { decodeFailure } from './thrown.ts';

const page = (body: string): string => `<html><body onload="document.forms[0].submit()">${body}</body></html>`;

describe('decodeCheckoutPage and HTML named character references', () => {
  it("decodes references from the whole of HTML's table, not only Latin-1 and a few common names", () => {
    // Expected code points written from the HTML standard's table (https://html.spec.whatwg.org/entities.json).
    const decoded = decodeCheckoutPage(
      page(
        '<form action="/pay?a=1&amp;b=&NotEqualTilde;" method=post>' +
          '<input type=hidden name=note value="x &NotEqualTilde; y">' +
          '<input type=hidden name=maths value="&notin;&alpha;&hearts;&check;">' +
          "<input type=hidden name=wide value='&Afr;&fjlig;&ThickSpace;'>" +
          '<input type=hidden name=unquoted value=&lang;&rang;>' +
          '</form>',
      ),
    );
    expect(decoded.action).toBe('/pay?a=1&b=\u2242\u0338');
    expect(decoded.entries).toEqual([
      ['note', 'x \u2242\u0338 y'],
      ['maths', '\u2209\u03b1\u2665\u2713'],
      ['wide', '\u{1d504}fj\u205f\u200a'],
      ['unquoted', '\u27e8\u27e9'],
    ]);
  });

  it('still leaves a name that is in no table, and a legacy name before `=` or a letter, as written', () => {
    const decoded = decodeCheckoutPage(page('<form><input type=hidden name=q value="&NotATableName; &notit; a=1&copy=2 &notin"></form>'));
    // `&notin` without `;` is `&not` (a legacy name) followed by `in`: a letter, so in an attribute it stays as written.
    expect(decoded.fields).toEqual({ q: '&NotATableName; &notit; a=1&copy=2 &notin' });
  });
});

describe('decodeCheckoutPage on markup a browser tokenizes by the less obvious rules of the HTML standard', () => {
  it('ends a comment at `--!>`, as the HTML tokenizer does, so the form after it is read', () => {
    // A tokenizer that only looks for `-->` never closes this comment and finds no form at all.
    const decoded = decodeCheckoutPage(page('<!-- pay form --!><form action=/pay method=post><input type=hidden name=orderNo value=O-1></form>'));
    expect(decoded.action).toBe('/pay');
    expect(decoded.entries).toEqual([['orderNo', 'O-1']]);
  });

  it('reads everything after `<plaintext>` as text, so a form written there is no form', () => {
    const error = decodeFailure(() => decodeCheckoutPage(page('<plaintext><form action=/pay><input type=hidden name=orderNo value=O-1></form>')));
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.details).toEqual({ format: 'html', failure: 'no-form', path: 'form' });
  });
});
