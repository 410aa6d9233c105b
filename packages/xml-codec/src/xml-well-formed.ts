import { DecodeError } from './decode-error.ts';
import { isReservedName } from './xml-text.ts';

/** The deepest element nesting a document may have (a gateway document has 3 levels); deeper is refused, never walked. */
export const MAX_XML_DEPTH = 100;

function malformed(message: string): DecodeError {
  return new DecodeError({ format: 'xml', failure: 'malformed', path: '' }, message);
}

/** The refusal of an element named like a JavaScript object member; the path leaves out namespace prefixes. */
export function reservedName(stack: readonly string[], name: string): DecodeError {
  const local = (n: string) => n.slice(n.lastIndexOf(':') + 1);
  const path = [...stack, name].map(local).join('.');
  return new DecodeError(
    { format: 'xml', failure: 'reserved-name', path },
    `the element <${name}> is named like a JavaScript object member (__proto__, constructor, prototype, toString, ...); such elements are refused`,
  );
}

function nameEnd(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // whitespace, '/', '>' end a tag name
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
  }
  return i;
}

/**
 * Checks that every element is closed by an end tag of its own name, in order (more than one root element is
 * refused by `parseRootElement`), and that no element is named like a JavaScript object member. fast-xml-parser accepts `<a>1</b>`; a payment
 * answer with mismatched tags is a broken document, never a value. One pass over the text, no allocation per char.
 */
export function assertWellNested(text: string): void {
  const stack: string[] = [];
  let i = text.indexOf('<');
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x3f) {
      // <? ... ?>
      const end = text.indexOf('?>', i + 2);
      if (end === -1) throw malformed('a processing instruction is not closed');
      i = text.indexOf('<', end + 2);
      continue;
    }
    if (next === 0x21) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end === -1) throw malformed('a comment is not closed');
        i = text.indexOf('<', end + 3);
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        if (stack.length === 0) throw malformed('character data outside the root element');
        const end = text.indexOf(']]>', i + 9);
        if (end === -1) throw malformed('a CDATA section is not closed');
        i = text.indexOf('<', end + 3);
        continue;
      }
      // <!DOCTYPE and anything else: the parser refuses it (no DTD is ever processed).
      i = text.indexOf('<', i + 2);
      continue;
    }
    let close = i + 1;
    let quote = 0;
    for (; close < text.length; close++) {
      const c = text.charCodeAt(close);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) break;
    }
    if (close >= text.length) throw malformed('a tag is not closed');
    if (next === 0x2f) {
      const name = text.slice(i + 2, nameEnd(text, i + 2));
      const open = stack.pop();
      if (open === undefined) throw malformed(`the end tag </${name}> has no start tag`);
      if (open !== name) throw malformed(`the end tag </${name}> does not close <${open}>`);
      if (text.slice(nameEnd(text, i + 2), close).trim() !== '') throw malformed(`the end tag </${name}> carries more than a name`);
    } else {
      const name = text.slice(i + 1, nameEnd(text, i + 1));
      if (isReservedName(name)) throw reservedName(stack, name);
      if (text.charCodeAt(close - 1) !== 0x2f) stack.push(name);
      if (stack.length > MAX_XML_DEPTH) {
        throw new DecodeError({ format: 'xml', failure: 'too-deep', path: '' }, `elements are nested more than ${MAX_XML_DEPTH} levels deep`);
      }
    }
    i = text.indexOf('<', close + 1);
  }
  if (stack.length > 0) throw malformed(`<${stack.at(-1)}> is not closed`);
}
