import { describe, expect, it } from 'vitest';
import { decodeCardRespon } from '../src/index.ts';
import { decodeFailure } from './thrown.ts';

const CARD = '4111111111111111';

describe("a respon a gateway's template slipped on, with a plain meaning, is read (UNKNOWNS U20: lenient decode)", () => {
  it('whitespace before the declaration, and an `&` that starts no reference (a URL written unescaped), read as written', () => {
    const xml = '\n  <?xml version="1.0" encoding="UTF-8"?>\n<respon><issuer_url>https://x/?a=1&b=2&amp;c=3</issuer_url><note>a & b</note></respon>';
    expect(decodeCardRespon(xml)).toEqual({ issuer_url: 'https://x/?a=1&b=2&c=3', note: 'a & b' });
  });
});

describe('a respon that is not well-formed XML is refused with DecodeError malformed', () => {
  it.each([
    ['text before the root element', 'ok<respon><order_no>O1</order_no></respon>'],
    ['text after the root element', '<respon><order_no>O1</order_no></respon>ok'],
    ['character data outside the root element', '<![CDATA[x]]><respon><order_no>O1</order_no></respon>'],
    ['an unquoted attribute', '<respon><order_no id=1>O1</order_no></respon>'],
    ['an attribute without a value', '<respon><order_no checked>O1</order_no></respon>'],
    ['a repeated attribute', '<respon><order_no a="1" a="2">O1</order_no></respon>'],
    ['a tag name that is not an XML name', '<respon><1order>O1</1order></respon>'],
    ['the XML declaration after other text', 'x<?xml version="1.0"?><respon><order_no>O1</order_no></respon>'],
  ])('%s', (_what, xml) => {
    const error = decodeFailure(() => decodeCardRespon(xml));
    expect(error.details).toEqual({ format: 'xml', failure: 'malformed', path: '' });
  });

  it('names the kind of problem and where it is, never the text: not in the message, the JSON or a cause', () => {
    for (const xml of [
      `<respon><card>${CARD}</card><note>a <b</note></respon>`,
      `<respon><${CARD}>x</${CARD}></respon>`,
      `<respon><card>${CARD}</card></note></respon>`,
      `<respon><card>${CARD}</card><note`,
      `${CARD}<respon/>`,
    ]) {
      const error = decodeFailure(() => decodeCardRespon(xml));
      expect(error.failure, xml).toBe('malformed');
      const chain: unknown[] = [];
      for (let link: unknown = error; link instanceof Error; link = link.cause) chain.push(link.message, link.stack);
      expect(JSON.stringify([error, ...chain]), xml).not.toContain('4111');
    }
    expect(decodeFailure(() => decodeCardRespon(`<respon>\n<card>${CARD}</cart></respon>`)).message).toBe(
      'xml decode failed (malformed): a tag is broken, not closed, or does not match its start tag (line 2, column 23)',
    );
  });

  it('still decodes a well-formed document with a BOM, comments, processing instructions, CDATA and references', () => {
    const xml = '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><?pi x?><respon><note a="x>y"><![CDATA[a & <b>]]> &amp; &#65;</note></respon>\n';
    expect(decodeCardRespon(xml)).toEqual({ note: 'a & <b> & A' });
  });
});
