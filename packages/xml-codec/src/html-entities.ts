// Latin-1 names in code point order from U+00A0: HTML's legacy entities, the only ones valid without `;`.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest ' +
  'Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const LEGACY_ASCII: Readonly<Record<string, number>> = { amp: 38, AMP: 38, lt: 60, LT: 60, gt: 62, GT: 62, quot: 34, QUOT: 34, COPY: 169, REG: 174 };

// Common entities that need `;`: typographic, ASCII punctuation names that escape URLs, and a few symbols.
const WITH_SEMICOLON: Readonly<Record<string, number>> = {
  apos: 39, Tab: 9, NewLine: 10, excl: 33, num: 35, dollar: 36, percnt: 37, lpar: 40, rpar: 41, ast: 42, plus: 43, comma: 44,
  period: 46, sol: 47, colon: 58, semi: 59, equals: 61, quest: 63, commat: 64, lsqb: 91, lbrack: 91, bsol: 92, rsqb: 93,
  rbrack: 93, Hat: 94, lowbar: 95, grave: 96, lcub: 123, lbrace: 123, verbar: 124, vert: 124, rcub: 125, rbrace: 125,
  OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, fnof: 402, circ: 710, tilde: 732, ensp: 8194, emsp: 8195,
  thinsp: 8201, zwnj: 8204, zwj: 8205, lrm: 8206, rlm: 8207, ndash: 8211, mdash: 8212, lsquo: 8216, rsquo: 8217, sbquo: 8218,
  ldquo: 8220, rdquo: 8221, bdquo: 8222, dagger: 8224, Dagger: 8225, bull: 8226, hellip: 8230, permil: 8240, prime: 8242,
  Prime: 8243, lsaquo: 8249, rsaquo: 8250, oline: 8254, frasl: 8260, euro: 8364, trade: 8482, larr: 8592, uarr: 8593,
  rarr: 8594, darr: 8595, harr: 8596, minus: 8722, infin: 8734, ne: 8800, le: 8804, ge: 8805,
};

const legacy = new Map<string, string>();
LATIN1.split(' ').forEach((name, index) => legacy.set(name, String.fromCodePoint(0xa0 + index)));
for (const [name, code] of Object.entries(LEGACY_ASCII)) legacy.set(name, String.fromCodePoint(code));
const named = new Map<string, string>(legacy);
for (const [name, code] of Object.entries(WITH_SEMICOLON)) named.set(name, String.fromCodePoint(code));
const LONGEST_LEGACY = Math.max(...[...legacy.keys()].map((name) => name.length));

/** How many named entities the decoder knows (the rest stay verbatim). */
export const knownHtmlEntityCount = named.size;

// HTML maps numeric references in 0x80..0x9F to the Windows-1252 characters (the "C1 remap" table).
const C1: Readonly<Record<number, number>> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6,
  0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c,
  0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a,
  0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

function numericReference(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(C1[code] ?? code);
}

const REFERENCE = /&(?:#([0-9]+);?|#[xX]([0-9a-fA-F]+);?|([A-Za-z][A-Za-z0-9]*)(;?))/g;
const ALNUM_OR_EQUALS = /[A-Za-z0-9=]/;

/** Decodes character references in an attribute value the way an HTML parser does, for the entities it knows. */
export function decodeHtmlAttribute(value: string): string {
  const text = value.indexOf('\0') === -1 ? value : value.replace(/\0/g, '\uFFFD');
  if (text.indexOf('&') === -1) return text;
  return text.replace(REFERENCE, (whole: string, decimal: string | undefined, hex: string | undefined, name: string | undefined, semicolon: string, offset: number) => {
    if (decimal !== undefined) return numericReference(decimal.length > 8 ? Infinity : Number.parseInt(decimal, 10));
    if (hex !== undefined) return numericReference(hex.length > 7 ? Infinity : Number.parseInt(hex, 16));
    const entity = name ?? '';
    if (semicolon) {
      const decoded = named.get(entity);
      if (decoded !== undefined) return decoded;
    }
    // Without `;`, only a legacy name counts, and in an attribute not when a letter, digit or `=` follows it.
    for (let length = Math.min(entity.length, LONGEST_LEGACY); length >= 2; length--) {
      const decoded = legacy.get(entity.slice(0, length));
      if (decoded === undefined) continue;
      const next = length < entity.length ? entity[length] : semicolon || text[offset + whole.length];
      if (next !== undefined && ALNUM_OR_EQUALS.test(next)) return whole;
      return decoded + entity.slice(length) + semicolon;
    }
    return whole;
  });
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/** Escapes text for a double-quoted attribute value; `\r` becomes a reference because HTML turns raw CR into LF. */
export function escapeHtmlAttribute(value: string): string {
  return value.replace(/[&"'<>\r]/g, (ch) => ESCAPES[ch] ?? ch);
}

const NOT_HTML = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True if the text survives a trip through an HTML attribute (no NUL, no lone surrogate). */
export function isHtmlAttributeText(value: string): boolean {
  return !NOT_HTML.test(value);
}
