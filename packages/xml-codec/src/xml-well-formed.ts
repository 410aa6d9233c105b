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

/**
 * Refuses a document that is not well-formed XML, as fast-xml-parser's `XMLValidator` judges it: every element closed
 * by an end tag of its own name, in order; attributes quoted, named and not repeated; one root; no text outside it and
 * no `&` that starts no reference. The parser alone accepts `<a>1</b>`; a payment answer with mismatched tags is a
 * broken document, never a value. The message names the kind of problem, its line and its column, never the text.
 */
export function assertWellFormed(text: string): void {
  const result = XMLValidator.validate(text);
  if (result === true) return;
  const { code, line, col } = result.err;
  throw new DecodeError({ format: 'xml', failure: 'malformed', path: '' }, `${PROBLEMS[code] ?? 'the document is not well-formed XML'} (line ${line}, column ${col})`);
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
