import { decodeHtmlAttribute } from './html-entities.ts';

/** A start tag: lower-case name, attributes (first of each name wins, values decoded) and its offset. */
export interface HtmlStartTag {
  readonly type: 'start';
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly selfClosing: boolean;
  readonly offset: number;
}

/** An end tag, lower-case name. */
export interface HtmlEndTag {
  readonly type: 'end';
  readonly name: string;
  readonly offset: number;
}

/** The raw text of a `script`, `style`, `textarea`, ... element. */
export interface HtmlRawText {
  readonly type: 'raw';
  readonly element: string;
  readonly text: string;
  readonly offset: number;
}

/** What the tokenizer reports; ordinary text between tags is skipped. */
export type HtmlToken = HtmlStartTag | HtmlEndTag | HtmlRawText;

// Elements whose content is text up to their end tag, never markup (HTML's raw text and RCDATA elements).
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);
const rawTextEnd = new Map<string, RegExp>();

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function lowerAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** Reads a tag from `<` at `start`: its name, attributes and the index after `>`; null when the input ends inside it. */
function readTag(html: string, start: number, nameStart: number): { name: string; attributes: Map<string, string>; selfClosing: boolean; end: number } | null {
  const n = html.length;
  let p = nameStart;
  while (p < n) {
    const code = html.charCodeAt(p);
    if (isWhitespace(code) || code === 0x2f || code === 0x3e) break;
    p++;
  }
  const name = lowerAscii(html.slice(nameStart, p));
  const attributes = new Map<string, string>();
  let selfClosing = false;
  for (;;) {
    while (p < n && isWhitespace(html.charCodeAt(p))) p++;
    if (p >= n) return null;
    const code = html.charCodeAt(p);
    if (code === 0x3e) return { name, attributes, selfClosing, end: p + 1 };
    if (code === 0x2f) {
      p++;
      selfClosing = html.charCodeAt(p) === 0x3e;
      continue;
    }
    selfClosing = false;
    // An attribute name runs to whitespace, `/`, `>` or `=` (a leading `=` belongs to the name, as in HTML).
    const attrStart = p++;
    while (p < n) {
      const c = html.charCodeAt(p);
      if (isWhitespace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      p++;
    }
    const attrName = lowerAscii(html.slice(attrStart, p));
    while (p < n && isWhitespace(html.charCodeAt(p))) p++;
    let value = '';
    if (html.charCodeAt(p) === 0x3d) {
      p++;
      while (p < n && isWhitespace(html.charCodeAt(p))) p++;
      const quote = html.charCodeAt(p);
      if (quote === 0x22 || quote === 0x27) {
        const close = html.indexOf(quote === 0x22 ? '"' : "'", p + 1);
        if (close === -1) return null;
        value = html.slice(p + 1, close);
        p = close + 1;
      } else {
        const valueStart = p;
        while (p < n) {
          const c = html.charCodeAt(p);
          if (isWhitespace(c) || c === 0x3e) break;
          p++;
        }
        value = html.slice(valueStart, p);
      }
    }
    if (!attributes.has(attrName)) attributes.set(attrName, decodeHtmlAttribute(value));
  }
}

/**
 * Tokenizes HTML the way a browser finds tags: case-insensitive names, quoted, single-quoted and unquoted attribute
 * values, comments and bogus markup skipped, raw text elements (`script`, ...) read to their end tag.
 */
export function tokenizeHtml(source: string): HtmlToken[] {
  // HTML normalises CR LF and lone CR to LF before tokenizing.
  const html = source.indexOf('\r') === -1 ? source : source.replace(/\r\n?/g, '\n');
  const tokens: HtmlToken[] = [];
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) break;
    const next = html.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (html.startsWith('<!--', lt)) {
        // `<!-->` and `<!--->` are complete (empty) comments in HTML.
        const shortEnd = html.startsWith('>', lt + 4) ? lt + 5 : html.startsWith('->', lt + 4) ? lt + 6 : -1;
        if (shortEnd !== -1) {
          i = shortEnd;
          continue;
        }
        const end = html.indexOf('-->', lt + 4);
        i = end === -1 ? n : end + 3;
        continue;
      }
      const end = html.indexOf('>', lt + 2);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (next === 0x3f /* ? */) {
      const end = html.indexOf('>', lt + 2);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (next === 0x2f /* / */) {
      const after = html.charCodeAt(lt + 2);
      if (isAsciiLetter(after)) {
        const tag = readTag(html, lt, lt + 2);
        if (!tag) break;
        tokens.push({ type: 'end', name: tag.name, offset: lt });
        i = tag.end;
      } else if (after === 0x3e) {
        i = lt + 3;
      } else {
        const end = html.indexOf('>', lt + 2);
        i = end === -1 ? n : end + 1;
      }
      continue;
    }
    if (!isAsciiLetter(next)) {
      i = lt + 1;
      continue;
    }
    const tag = readTag(html, lt, lt + 1);
    if (!tag) break;
    tokens.push({ type: 'start', name: tag.name, attributes: tag.attributes, selfClosing: tag.selfClosing, offset: lt });
    i = tag.end;
    if (RAW_TEXT.has(tag.name)) {
      let endPattern = rawTextEnd.get(tag.name);
      if (!endPattern) {
        endPattern = new RegExp(`</${tag.name}[\\t\\n\\f\\r />]`, 'gi');
        rawTextEnd.set(tag.name, endPattern);
      }
      endPattern.lastIndex = i;
      const close = endPattern.exec(html);
      const end = close ? close.index : n;
      tokens.push({ type: 'raw', element: tag.name, text: html.slice(i, end), offset: i });
      i = end;
    }
  }
  return tokens;
}
