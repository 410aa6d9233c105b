/** Thrown by the parser hook when a document declares a DOCTYPE; turned into `DecodeError` `doctype`. */
export class DoctypeRefusal extends Error {
  override readonly name = 'DoctypeRefusal';
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|([A-Za-z_][\w.-]*));/g;

/** True for a code point XML 1.0 allows in a document (the `Char` production). */
export function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function replaceReference(whole: string, decimal: string | undefined, hex: string | undefined, name: string | undefined): string {
  if (name !== undefined) return PREDEFINED[name] ?? whole;
  const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
  // A reference to a character XML forbids stays as written rather than becoming a lone surrogate or NUL.
  return isXmlChar(code) ? String.fromCodePoint(code) : whole;
}

/** Replaces the five predefined entities and character references; anything else (a DTD's entities) stays verbatim. */
export function decodeXmlText(text: string): string {
  return text.indexOf('&') === -1 ? text : text.replace(REFERENCE, replaceReference);
}

/**
 * The entity decoder handed to fast-xml-parser: no DTD entity is ever expanded, because a DOCTYPE refuses the
 * whole document before any text is decoded.
 */
export const xmlEntityDecoder = {
  setExternalEntities(): void {},
  addInputEntities(): void {
    throw new DoctypeRefusal('DOCTYPE declarations are refused');
  },
  reset(): void {},
  decode: decodeXmlText,
  setXmlVersion(): void {},
};

// Characters XML 1.0 cannot carry at all, even as references: C0 controls, U+FFFE/U+FFFF and lone surrogates.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True if the text can be written in an XML document and read back unchanged. */
export function isXmlText(text: string): boolean {
  return !NOT_XML.test(text);
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/** Escapes element text; `\r` becomes a reference because parsers turn a raw CR (LF) into LF. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (ch) => ESCAPES[ch] ?? ch);
}

const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const XML_NAME = new RegExp(`^[${NAME_START.replace(':', '')}][${NAME_START.replace(':', '')}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`);

/** True for a name usable as an element name without a namespace prefix (a colon would be stripped on decode). */
export function isXmlElementName(name: string): boolean {
  return XML_NAME.test(name);
}

const RESERVED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * True for a name that would shadow or pollute a JavaScript object (`__proto__`, `constructor`, `prototype`,
 * `toString`, ...): never written as an element, and an element so named (with or without a namespace prefix) is refused.
 */
export function isReservedName(name: string): boolean {
  if (RESERVED_NAMES.has(name)) return true;
  return name.includes(':') && name.split(':').some((part) => RESERVED_NAMES.has(part));
}
