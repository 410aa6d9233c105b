import { operations, specSchemas, ValidationError } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { decodeAlternativeRespon, decodeCardRespon, decodeRespon, DecodeError, encodeRespon } from '../src/index.ts';
import { decodeFailure } from './thrown.ts';

const root = operations.authoriseCard.xmlRoot;
const respon = (children: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${children}</${root}>`;
const cardProperties = (specSchemas as { $defs: Record<string, { properties: Record<string, { type?: string }> }> }).$defs.CardRespon!.properties;

describe('decodeCardRespon', () => {
  it('gives every element the type the spec gives it: numbers for number properties, strings for the rest', () => {
    const names = Object.keys(cardProperties).filter((name) => name !== 'risk_reasons');
    const decoded = decodeCardRespon(respon(names.map((name) => `<${name}>7</${name}>`).join(''))) as Record<string, unknown>;
    for (const name of names) expect(decoded[name], name).toBe(cardProperties[name]?.type === 'number' ? 7 : '7');
    expect(decoded.risk_score).toBe(7);
    expect(decoded.order_status).toBe('7');
  });

  it("decodes empty elements as '' and an empty risk_reasons as ''", () => {
    expect(decodeCardRespon(respon('<note></note><token_id/><risk_reasons>\n  </risk_reasons>'))).toStrictEqual({ note: '', token_id: '', risk_reasons: '' });
  });

  it('decodes risk_reasons with its name and status', () => {
    expect(decodeCardRespon(respon('<risk_reasons>\n <name>velocity</name>\n <status>PASS</status>\n</risk_reasons>')).risk_reasons).toStrictEqual({
      name: 'velocity',
      status: 'PASS',
    });
  });

  it('leaves out an empty risk_score rather than give a string where the spec says number', () => {
    expect(decodeCardRespon(respon('<risk_score></risk_score><risk_action>ACCEPT</risk_action>'))).toStrictEqual({ risk_action: 'ACCEPT' });
  });

  it('keeps text exactly, with entities, character references, CDATA and surrounding spaces', () => {
    const decoded = decodeCardRespon(
      respon('<note> a &amp; b &lt;c&gt; &#233;&#x1F600; <![CDATA[<raw> &amp;]]></note><result_info>0000:Approved</result_info>'),
    );
    expect(decoded.note).toBe(' a & b <c> é😀 <raw> &amp;');
    expect(decoded.result_info).toBe('0000:Approved');
  });

  it('ignores namespace prefixes, comments and processing instructions', () => {
    const xml = '<?xml version="1.0"?><!-- gateway --><gw:respon xmlns:gw="urn:gw"><?trace id=1?><gw:order_no>O1</gw:order_no></gw:respon>';
    expect(decodeCardRespon(xml)).toStrictEqual({ order_no: 'O1' });
  });

  it('keeps elements the spec does not list (UNKNOWNS U20)', () => {
    expect(decodeCardRespon(respon('<order_no>O1</order_no><acquirer>ACQ</acquirer><extra><a>1</a><a>2</a></extra>'))).toStrictEqual({
      order_no: 'O1',
      acquirer: 'ACQ',
      extra: { a: ['1', '2'] },
    });
  });

  it.each([
    ['a risk_score that is not a number', respon('<risk_score>high</risk_score>'), 'type', 'respon.risk_score'],
    ['a text element with child elements', respon('<note><b>x</b></note>'), 'type', 'respon.note'],
    ['a repeated element', respon('<order_no>1</order_no><order_no>2</order_no>'), 'repeated', 'respon.order_no'],
    ['a repeated risk reason name', respon('<risk_reasons><name>a</name><name>b</name></risk_reasons>'), 'repeated', 'respon.risk_reasons.name'],
    ['text mixed with elements', respon('stray<order_no>1</order_no>'), 'type', 'respon'],
    ['another root element', '<response><order_no>1</order_no></response>', 'root', 'response'],
    ['two root elements', `${respon('')}${respon('')}`, 'root', 'respon'],
    ['no element at all', 'just text', 'root', ''],
    ['an element named like a JavaScript prototype key', respon('<__proto__>x</__proto__>'), 'reserved-name', 'respon.__proto__'],
  ])('refuses %s with DecodeError naming the failure and the path', (_what, xml, failure, path) => {
    const error = decodeFailure(() => decodeCardRespon(xml));
    expect(error.code).toBe('GW_DECODE');
    expect(error.details).toEqual({ format: 'xml', failure, path });
  });
});

describe('decodeRespon', () => {
  it('tells the alternative variant by issuer_url and the card variant otherwise (UNKNOWNS U34)', () => {
    expect(decodeRespon(respon('<order_no>O1</order_no><issuer_url>https://pay.example/q?a=1&amp;b=2</issuer_url>'))).toStrictEqual({
      variant: 'alternative',
      respon: { order_no: 'O1', issuer_url: 'https://pay.example/q?a=1&b=2' },
    });
    expect(decodeRespon(respon('<order_no>O1</order_no><risk_score>3</risk_score>'))).toStrictEqual({
      variant: 'card',
      respon: { order_no: 'O1', risk_score: 3 },
    });
    expect(decodeRespon(respon(''))).toStrictEqual({ variant: 'card', respon: {} });
  });

  it('reads the alternative variant without card typing, and the card variant keeps issuer_url as an unknown element', () => {
    expect(decodeAlternativeRespon(respon('<issuer_url>u</issuer_url><risk_score>x</risk_score>'))).toStrictEqual({ issuer_url: 'u', risk_score: 'x' });
    expect(decodeCardRespon(respon('<issuer_url>u</issuer_url>'))).toStrictEqual({ issuer_url: 'u' });
  });
});

describe('encodeRespon', () => {
  it('writes the declaration, the root from the operations table and the elements in spec order', () => {
    const xml = encodeRespon({ risk_score: 12.5, order_no: 'O&1', merchant_id: 'M1', risk_reasons: { status: 'PASS', name: 'n' }, note: '' });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<respon><merchant_id>M1</merchant_id><order_no>O&amp;1</order_no><note/><risk_score>12.5</risk_score><risk_reasons><name>n</name><status>PASS</status></risk_reasons></respon>',
    );
  });

  it('picks the alternative variant when the record has issuer_url', () => {
    expect(encodeRespon({ issuer_url: 'u', merchant_id: 'M' })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<respon><merchant_id>M</merchant_id><issuer_url>u</issuer_url></respon>',
    );
  });

  it('reports every value it cannot write at once, without the values', () => {
    const record = { risk_score: Number.NaN, note: 'bell\u0007', card: 4111111111111111, risk_reasons: 'x', 'bad name': 'v' } as never;
    const encode = () => encodeRespon(record);
    expect(encode).toThrow(ValidationError);
    const problems = [
      ['card', 'type'],
      ['note', 'xmlChar'],
      ['risk_score', 'type'],
      ['risk_reasons', 'type'],
      ['bad name', 'xmlName'],
    ].map(([field, keyword]) => expect.objectContaining({ field, keyword }));
    expect(encode).toThrow(expect.objectContaining({ details: expect.objectContaining({ problems }), message: expect.not.stringContaining('4111') }));
  });
});
