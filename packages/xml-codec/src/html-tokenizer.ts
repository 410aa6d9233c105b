import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** A start tag: lower-case name, attributes (first of each name wins, values decoded). */
export interface HtmlStartTag {
  readonly type: 'start';
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly selfClosing: boolean;
}

/** An end tag, lower-case name. */
export interface HtmlEndTag {
  readonly type: 'end';
  readonly name: string;
}

/** The text of a `script`, `style`, `textarea`, ... element, read up to its end tag. */
export interface HtmlRawText {
  readonly type: 'raw';
  readonly element: string;
  readonly text: string;
}

/** What the tokenizer reports; ordinary text between tags, comments and doctypes are skipped. */
export type HtmlToken = HtmlStartTag | HtmlEndTag | HtmlRawText;

// The elements htmlparser2's tokenizer reads as text up to their end tag (HTML's raw text, RCDATA and plaintext).
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** HTML lower-cases tag and attribute names in ASCII only. */
function lowerAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** Collects the tokenizer's events (offsets into `html`) as tokens. */
class TokenList implements TokenizerCallbacks {
  readonly tokens: HtmlToken[] = [];
  private tagName = '';
  private attributes = new Map<string, string>();
  private attributeName = '';
  private attributeValue = '';
  private raw: { element: string; text: string } | null = null;
  private readonly html: string;

  constructor(html: string) {
    this.html = html;
  }

  onopentagname(start: number, end: number): void {
    this.endRawText();
    this.tagName = lowerAscii(this.html.slice(start, end));
    this.attributes = new Map();
  }

  onattribname(start: number, end: number): void {
    this.attributeName = lowerAscii(this.html.slice(start, end));
    this.attributeValue = '';
  }

  onattribdata(start: number, end: number): void {
    this.attributeValue += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (!this.attributes.has(this.attributeName)) this.attributes.set(this.attributeName, this.attributeValue);
    this.attributeValue = '';
  }

  onopentagend(): void {
    this.startTag(false);
  }

  onselfclosingtag(): void {
    this.startTag(true);
  }

  onclosetag(start: number, end: number): void {
    this.endRawText();
    this.tokens.push({ type: 'end', name: lowerAscii(this.html.slice(start, end)) });
  }

  ontext(start: number, end: number): void {
    if (this.raw) this.raw.text += this.html.slice(start, end);
  }

  ontextentity(codePoint: number): void {
    if (this.raw) this.raw.text += String.fromCodePoint(codePoint);
  }

  onend(): void {
    this.endRawText();
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private startTag(selfClosing: boolean): void {
    this.tokens.push({ type: 'start', name: this.tagName, attributes: this.attributes, selfClosing });
    // HTML ignores the `/` of `<script/>`: its text still runs to `</script>`.
    if (RAW_TEXT.has(this.tagName)) this.raw = { element: this.tagName, text: '' };
  }

  private endRawText(): void {
    if (!this.raw) return;
    this.tokens.push({ type: 'raw', ...this.raw });
    this.raw = null;
  }
}

/**
 * Tokenizes HTML with htmlparser2's tokenizer, which follows the HTML tokenizer's states: case-insensitive names,
 * quoted, single-quoted and unquoted attribute values decoded with HTML's complete table of named references,
 * comments and bogus markup skipped, `script` and the other raw text elements read to their end tag. It builds no
 * tree (htmlparser2's `Parser` keeps an element stack whose upkeep grows with the nesting depth).
 */
export function tokenizeHtml(source: string): HtmlToken[] {
  // The HTML input stream turns CR LF and lone CR into LF; a NUL in a tag or attribute becomes U+FFFD.
  const html = /[\r\0]/.test(source) ? source.replace(/\r\n?|\0/g, (found) => (found === '\0' ? '\uFFFD' : '\n')) : source;
  const list = new TokenList(html);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, list);
  tokenizer.write(html);
  tokenizer.end();
  return list.tokens;
}
