import { describe, expect, it } from 'vitest';
import { stripScriptNoise } from '../src/checkout-page.ts';
import { escapeHtmlAttribute } from '../src/html-escape.ts';
import { tokenizeHtml, type HtmlStartTag } from '../src/html-tokenizer.ts';

const startTags = (html: string): { name: string; attributes: Record<string, string> }[] =>
  tokenizeHtml(html)
    .filter((token): token is HtmlStartTag => token.type === 'start')
    .map((token) => ({ name: token.name, attributes: Object.fromEntries(token.attributes) }));

describe('tokenizeHtml', () => {
  it('reads double-quoted, single-quoted, unquoted and bare attributes, lower-casing names but not values', () => {
    expect(startTags(`<INPUT Type="Hidden" NAME='Order No' value=A&amp;B disabled data-x = y>`)).toEqual([
      { name: 'input', attributes: { type: 'Hidden', name: 'Order No', value: 'A&B', disabled: '', 'data-x': 'y' } },
    ]);
  });

  it('keeps the first of repeated attributes, as browsers do', () => {
    expect(startTags('<input name=a name=b value=1>')[0]?.attributes).toEqual({ name: 'a', value: '1' });
  });

  it('handles self-closing slashes, attributes without spaces between them and `>` inside quotes', () => {
    expect(startTags(`<input name="a"value='x>y'/><br/>`)).toEqual([
      { name: 'input', attributes: { name: 'a', value: 'x>y' } },
      { name: 'br', attributes: {} },
    ]);
    expect(startTags('<input value=7.00/>')[0]?.attributes.value).toBe('7.00/');
  });

  it('skips comments, doctypes, processing instructions and CDATA-looking markup', () => {
    expect(startTags('<!DOCTYPE html><?xml x?><!-- <form> --><!--><p><!---><b><![CDATA[<i>]]><u>').map((t) => t.name)).toEqual(['p', 'b', 'u']);
  });

  it('reads script, style and textarea content as text up to their end tag', () => {
    const tokens = tokenizeHtml(`<script>if (a < b) x = "<form>";</SCRIPT ><textarea><input name=x></textarea ><p>`);
    expect(tokens.map((t) => (t.type === 'raw' ? `raw:${t.text}` : `${t.type}:${t.name}`))).toEqual([
      'start:script',
      'raw:if (a < b) x = "<form>";',
      'end:script',
      'start:textarea',
      'raw:<input name=x>',
      'end:textarea',
      'start:p',
    ]);
  });

  it('drops a tag the input ends inside of, and treats a lone `<` as text', () => {
    expect(startTags('a < b <p>ok</p><input name="unterminated')).toEqual([{ name: 'p', attributes: {} }]);
  });

  it('normalises CR LF and CR to LF, as the HTML input stream does', () => {
    expect(startTags('<input value="a\r\nb\rc">')[0]?.attributes.value).toBe('a\nb\nc');
  });
});

/** An attribute value as the tokenizer decodes it, written between double quotes. */
const decodeHtmlAttribute = (value: string): string => startTags(`<input value="${value}">`)[0]?.attributes.value ?? '(no value read)';

describe('attribute values', () => {
  it('decodes named, decimal and hex references, with and without a semicolon where HTML allows it', () => {
    expect(decodeHtmlAttribute('&lt;&gt;&amp;&quot;&apos;&#39;&#x27;&nbsp;&eacute;&euro;&hellip;&ndash;&copy &amp x')).toBe(`<>&"'''\u00a0é€…–© & x`);
  });

  it('leaves a legacy reference without semicolon alone when a letter, digit or `=` follows (query strings survive)', () => {
    expect(decodeHtmlAttribute('a=1&copy=2&not=3&amp=4&notit;&copy2')).toBe('a=1&copy=2&not=3&amp=4&notit;&copy2');
    expect(decodeHtmlAttribute('&copy;2 &not;x')).toBe('©2 ¬x');
  });

  it('keeps unknown names verbatim and maps numeric edge cases like a browser', () => {
    expect(decodeHtmlAttribute('&bogus; &#128; &#0; &#xD800; &#x110000; &#65')).toBe('&bogus; € \uFFFD \uFFFD \uFFFD A');
    expect(decodeHtmlAttribute('nul\0')).toBe('nul\uFFFD');
  });

  it("knows the 96 Latin-1 entities and the rest of HTML's table of named references", () => {
    expect(decodeHtmlAttribute('&yuml;&nbsp;&THORN;&iquest;')).toBe('ÿ\u00a0Þ¿');
    // Code points written from the HTML standard's table (https://html.spec.whatwg.org/entities.json).
    expect(decodeHtmlAttribute('&NotEqualTilde;')).toBe('\u2242\u0338');
    expect(decodeHtmlAttribute('&notin;|&alpha;|&hearts;|&check;|&lang;')).toBe('\u2209|\u03b1|\u2665|\u2713|\u27e8');
    expect(decodeHtmlAttribute('&fjlig;|&ThickSpace;|&Afr;|&NegativeMediumSpace;')).toBe('fj|\u205f\u200a|\u{1d504}|\u200b');
  });

  it('inverts escapeHtmlAttribute', () => {
    const text = `a&b<c>"d"'e'\r\n&amp;&#39;`;
    expect(decodeHtmlAttribute(escapeHtmlAttribute(text)).replace(/\r\n?/g, '\n')).toBe(text.replace(/\r\n?/g, '\n'));
    expect(escapeHtmlAttribute(text)).not.toMatch(/["'<>\r]/);
  });
});

describe('stripScriptNoise', () => {
  it('blanks comments and string contents but keeps code', () => {
    expect(stripScriptNoise(`a(); // b.submit()\n/* c.submit() */ d("e.submit()"); f('it\\'s')`)).toBe(`a(); \n d(""); f('')`);
  });

  it('ends a quote at the end of its line so a stray apostrophe does not hide later code', () => {
    expect(stripScriptNoise(`var x = 5; // don't\nvar y = 'a\nform.submit();`)).toContain('form.submit();');
  });
});
