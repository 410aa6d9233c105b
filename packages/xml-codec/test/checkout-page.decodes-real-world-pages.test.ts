import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCheckoutPage, DecodeError, type FormEntry } from '../src/index.ts';

const fixtures = join(import.meta.dirname, 'fixtures/checkout');
const page = (name: string): string => readFileSync(join(fixtures, name), 'utf8');

interface Expected {
  readonly action: string;
  readonly method: string;
  readonly autoSubmit: boolean;
  readonly entries: readonly FormEntry[];
  readonly allParams: readonly FormEntry[] | null;
}

// Written by hand from what a browser submits for each page, not from the decoder's output.
const pages: Record<string, Expected> = {
  'classic-double-quoted.html': {
    action: 'https://checkout.example.test/v1/hosted/pay?lang=en&v=2',
    method: 'POST',
    autoSubmit: true,
    entries: [
      ['merNo', 'M100200'],
      ['orderNo', 'ORD-1'],
      ['orderAmount', '10.00'],
      ['note', 'Fish & Chips <large>'],
      ['goodsInfo', 'Plug#,#SKU-1#,#1#,#10.00'],
      ['allParams', 'merNo=M100200&orderNo=ORD-1&orderAmount=10.00&note=Fish+%26+Chips+%3Clarge%3E'],
    ],
    allParams: [
      ['merNo', 'M100200'],
      ['orderNo', 'ORD-1'],
      ['orderAmount', '10.00'],
      ['note', 'Fish & Chips <large>'],
    ],
  },
  'unquoted-uppercase.html': {
    action: 'https://checkout.example.test/pay',
    method: 'POST',
    autoSubmit: true,
    entries: [
      ['merNo', 'M100200'],
      ['orderNo', 'ORD-2'],
      ['returnUrl', 'https://shop.example.com/return?order=ORD-2&lang=en'],
      ['firstName', 'Renée'],
      ['token_id', ''],
      ['shopperLevel', 'GOLD'],
      ['emptyflag', ''],
    ],
    allParams: null,
  },
  'xhtml-single-quoted.html': {
    action: 'https://checkout.example.test/v1/hosted/pay',
    method: 'POST',
    autoSubmit: true,
    entries: [
      ['orderNo', 'ORD-3'],
      ['note', 'He said "hello" – twice'],
      ['descriptor', 'ACME*SHOP'],
      ['rrtimezone', '+08:00'],
      ['allParams', 'orderNo=ORD-3&note=He+said+%22hello%22+%E2%80%93+twice'],
    ],
    allParams: [
      ['orderNo', 'ORD-3'],
      ['note', 'He said "hello" – twice'],
    ],
  },
  'decoys-in-comments-and-scripts.html': {
    action: 'https://checkout.example.test/v1/hosted/pay',
    method: 'POST',
    autoSubmit: true,
    entries: [
      ['orderNo', 'ORD-4'],
      ['amount', '4.00'],
    ],
    allParams: null,
  },
  'repeated-names-entities-crlf.html': {
    action: 'https://checkout.example.test/pay',
    method: 'POST',
    autoSubmit: true,
    entries: [
      ['items', 'A#,#1#,#2#,#3'],
      ['items', 'B#,#4#,#5#,#6'],
      ['note', 'line one\nline two'],
      ['price', "€5 © 2026 &copy2026 café it's\u00a0ok"],
      ['allParams', 'items=A&items=B&copy=2&not=3&x=%26'],
      ['Items', 'case-sensitive'],
    ],
    allParams: [
      ['items', 'A'],
      ['items', 'B'],
      ['copy', '2'],
      ['not', '3'],
      ['x', '&'],
    ],
  },
  'no-auto-submit.html': {
    action: 'https://checkout.example.test/pay',
    method: 'GET',
    autoSubmit: false,
    entries: [
      ['early', 'before the form, tied by form attribute'],
      ['orderNo', 'ORD-6'],
      ['late', 'after the form, tied by form attribute'],
    ],
    allParams: null,
  },
  'minified-one-line.html': {
    action: '/v1/hosted/pay?x=1&y=2',
    method: 'POST',
    autoSubmit: true,
    entries: [
      ['orderNo', 'ORD-7'],
      ['amount', '7.00'],
      ['pm_id', '10'],
      ['url', 'https://a.example/b?c=d'],
    ],
    allParams: null,
  },
};

describe('decodeCheckoutPage on differently written pages', () => {
  it.each(Object.entries(pages))('reads %s like a browser would submit it', (name, expected) => {
    const decoded = decodeCheckoutPage(page(name));
    expect(decoded.action).toBe(expected.action);
    expect(decoded.method).toBe(expected.method);
    expect(decoded.autoSubmit).toBe(expected.autoSubmit);
    expect(decoded.entries).toEqual(expected.entries);
    expect(decoded.allParams?.entries ?? null).toEqual(expected.allParams);
  });

  it('keeps the first value of a repeated name in fields and every value in entries', () => {
    const decoded = decodeCheckoutPage(page('repeated-names-entities-crlf.html'));
    expect(page('repeated-names-entities-crlf.html')).toContain('\r\n');
    expect(decoded.fields.items).toBe('A#,#1#,#2#,#3');
    expect(decoded.entries.filter(([name]) => name === 'items')).toHaveLength(2);
    expect(decoded.allParams?.params).toEqual({ items: 'A', copy: '2', not: '3', x: '&' });
    expect(decoded.allParams?.raw).toBe('items=A&items=B&copy=2&not=3&x=%26');
  });

  it('reads the same fields from the page however its tags are written', () => {
    const variants = [
      '<form action="/p" method="post"><input type="hidden" name="a" value="1 &amp; 2"></form>',
      "<FORM ACTION='/p' METHOD='POST'><INPUT TYPE='HIDDEN' NAME='a' VALUE='1 &amp; 2'></FORM>",
      '<form action=/p method=post><input type=hidden name=a value="1 &amp; 2"/></form>',
      '<form\n action = "/p"\n method = post\n><input\ttype=hidden\tname=a\tvalue=\'1 &#38; 2\'>',
    ];
    for (const html of variants) {
      const decoded = decodeCheckoutPage(html);
      expect({ action: decoded.action, method: decoded.method, entries: decoded.entries }).toEqual({ action: '/p', method: 'POST', entries: [['a', '1 & 2']] });
    }
  });

  it('refuses a page without a form with DecodeError no-form', () => {
    const decode = () => decodeCheckoutPage('<html><body><p>Sorry, something went wrong.</p></body></html>');
    expect(decode).toThrow(DecodeError);
    expect(decode).toThrow(expect.objectContaining({ details: { format: 'html', failure: 'no-form', path: 'form' } }));
  });

  it('does not let a field named __proto__ replace the prototype of fields', () => {
    const decoded = decodeCheckoutPage('<form><input type=hidden name=__proto__ value=x><input type=hidden name=a value=1></form>');
    expect(Object.getPrototypeOf(decoded.fields)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(decoded.fields, '__proto__')?.value).toBe('x');
    expect(decoded.fields.a).toBe('1');
  });
});
