import { describe, expect, it } from 'vitest';
import {
  decodeCancelSubscription,
  decodeCardRespon,
  decodeCheckoutPage,
  decodeItems,
  decodeRespon,
  DecodeError,
  DEFAULT_MAX_INPUT_BYTES,
} from '../src/index.ts';
import { decodeFailure } from './thrown.ts';

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<respon><note>&lol9;</note></respon>`;

describe('DOCTYPE and entities: a document with a DOCTYPE is refused, its entities are never expanded', () => {
  it.each([
    ['billion laughs', billionLaughs],
    ['an external entity', '<?xml version="1.0"?><!DOCTYPE respon [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><respon><note>&xxe;</note></respon>'],
    ['an external DTD', '<!DOCTYPE respon SYSTEM "http://127.0.0.1:9/evil.dtd"><respon><note>x</note></respon>'],
    ['a harmless internal entity', '<!DOCTYPE respon [<!ENTITY who "gateway">]><respon><note>&who;</note></respon>'],
    ['a DOCTYPE with no entities', '<!DOCTYPE respon><respon><note>x</note></respon>'],
    ['a broken DOCTYPE', '<!DOCTYPE respon [<!ENTITY a "b"><respon/>'],
  ])('refuses %s with DecodeError doctype', (_what, xml) => {
    const started = performance.now();
    const error = decodeFailure(() => decodeRespon(xml));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.details).toEqual({ format: 'xml', failure: 'doctype', path: '' });
    expect(decodeFailure(() => decodeCancelSubscription(xml.replace(/respon/g, 'request'))).failure).toBe('doctype');
  });

  it('does not expand an entity declared in a lower-case doctype either', () => {
    // fast-xml-parser does not read `<!doctype` as a DOCTYPE; it is refused as the wrong root, not expanded.
    const error = decodeFailure(() => decodeRespon('<!doctype respon [<!ENTITY who "gateway">]><respon><note>&who;</note></respon>'));
    expect(error.failure).toBe('root');
  });

  it('leaves references to undeclared entities as written and decodes only the predefined ones and character references', () => {
    expect(decodeCardRespon('<respon><note>&who; &amp; &#65;&#x42; &#0;</note></respon>').note).toBe('&who; & AB &#0;');
  });
});

describe('maxInputBytes (UNKNOWNS U51)', () => {
  const padding = (bytes: number): string => `<respon><note>${'a'.repeat(bytes - '<respon><note></note></respon>'.length)}</note></respon>`;

  it('defaults to 1 MiB: a document of exactly 1 MiB decodes and one byte more is refused', () => {
    expect(DEFAULT_MAX_INPUT_BYTES).toBe(1_048_576);
    expect(decodeCardRespon(padding(DEFAULT_MAX_INPUT_BYTES)).note).toHaveLength(DEFAULT_MAX_INPUT_BYTES - 30);
    expect(decodeFailure(() => decodeCardRespon(padding(DEFAULT_MAX_INPUT_BYTES + 1))).details).toEqual({ format: 'xml', failure: 'too-large', path: '' });
  });

  it('counts UTF-8 bytes, not characters', () => {
    const xml = `<respon><note>${'é'.repeat(40)}</note></respon>`;
    expect(xml.length).toBeLessThan(100);
    expect(Buffer.byteLength(xml)).toBeGreaterThan(100);
    expect(decodeFailure(() => decodeCardRespon(xml, { maxInputBytes: 100 })).failure).toBe('too-large');
    expect(decodeCardRespon(xml, { maxInputBytes: 200 }).note).toBe('é'.repeat(40));
  });

  it('applies to every decoder and to byte input', () => {
    const limit = { maxInputBytes: 10 };
    expect(decodeFailure(() => decodeCheckoutPage('<form><input type=hidden name=a value=1></form>', limit)).details).toEqual({
      format: 'html',
      failure: 'too-large',
      path: '',
    });
    expect(decodeFailure(() => decodeCancelSubscription('<request></request>', limit)).failure).toBe('too-large');
    expect(decodeFailure(() => decodeItems('a#,#b#,#c#,#d', limit)).failure).toBe('too-large');
    expect(decodeFailure(() => decodeCardRespon(new TextEncoder().encode('<respon><note>x</note></respon>'), limit)).failure).toBe('too-large');
  });

  it('decodes UTF-8 bytes and refuses bytes that are not UTF-8', () => {
    expect(decodeCardRespon(new TextEncoder().encode('<respon><note>café</note></respon>')).note).toBe('café');
    expect(decodeFailure(() => decodeCardRespon(new Uint8Array([0x3c, 0xff, 0xfe, 0x3e]))).details).toEqual({ format: 'xml', failure: 'not-text', path: '' });
    expect(decodeFailure(() => decodeRespon(42 as never)).failure).toBe('not-text');
  });
});
