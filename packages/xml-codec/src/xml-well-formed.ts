import { XMLValidator } from 'fast-xml-parser';
import { DecodeError } from './decode-error.ts';

/** The deepest element nesting a document may have (a gateway document has 3 levels); deeper is refused, never walked. */
export const MAX_XML_DEPTH = 100;

// The validator's error codes in words; its own messages are not repeated because they quote the document.
const PROBLEMS: Readonly<Record<string, string>> = {
  InvalidTag: 'a tag is broken, not closed, or does not match its start tag',
  InvalidAttr: 'an attribute is broken (not quoted, repeated, without a value or without a space before it)',
  InvalidChar: 'a character is out of place (text outside the root element, or an `&` that starts no reference)',
  InvalidXml: 'the document has no element, more than one root, an unclosed element or a misplaced declaration',
};

/** An `&` that starts no reference (`&name;`, `&#10;`, `&#x0A;`). */
const BARE_AMPERSAND = /&(?!(?:[A-Za-z_][\w.-]*|#\d+|#x[0-9A-Fa-f]+);)/g;

/**
 * The document as the well-formedness check reads it, lenient where a gateway's templating commonly slips and the
 * meaning is plain (UNKNOWNS U20, "lenient decode"): whitespace before the declaration, and an `&` that starts no
 * reference (a URL's query string written unescaped), read as the character it is. Mismatched or unclosed tags are
 * never excused.
 */
function lenientView(text: string): string {
  const trimmed = text.trimStart();
  return trimmed.includes('&') ? trimmed.replace(BARE_AMPERSAND, '&amp;') : trimmed;
}

/**
 * Refuses a document that is not well-formed XML, as fast-xml-parser's `XMLValidator` judges it: every element closed
 * by an end tag of its own name, in order; attributes quoted, named and not repeated; one root; no text outside it and
 * no `&` that starts no reference (but see lenientView). The parser alone accepts `<a>1</b>`; a payment answer with mismatched tags is a
 * broken document, never a value. The message names the kind of problem, its line and its column, never the text.
 */
export function assertWellFormed(text: string): void {
  const result = XMLValidator.validate(lenientView(text));
  if (result === true) return;
  const { code, line, col } = result.err;
  throw new DecodeError(
    { format: 'xml', failure: 'malformed', path: '' },
    `${PROBLEMS[code] ?? 'the document is not well-formed XML'} (line ${line}, column ${col})`,
  );
}

/** The refusal of an element named like a JavaScript object member; the path leaves out namespace prefixes and list indices. */
export function reservedName(parentPath: string, name: string): DecodeError {
  const local = name.slice(name.lastIndexOf(':') + 1);
  const path = parentPath === '' ? local : `${parentPath.replace(/\[\d+\]/g, '')}.${local}`;
  return new DecodeError(
    { format: 'xml', failure: 'reserved-name', path },
    `the element <${name}> is named like a JavaScript object member (__proto__, constructor, prototype, toString, ...); such elements are refused`,
  );
}
