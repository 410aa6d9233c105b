import { escapeUTF8 } from 'entities';

/**
 * Escapes text for a double-quoted attribute value: `&`, `"`, `'`, `<` and `>` as references (the `entities`
 * package), and `\r` as `&#13;` because HTML turns a raw CR into LF.
 */
export function escapeHtmlAttribute(value: string): string {
  const escaped = escapeUTF8(value);
  return escaped.includes('\r') ? escaped.replace(/\r/g, '&#13;') : escaped;
}

const NOT_HTML = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True if the text survives a trip through an HTML attribute (no NUL, no lone surrogate). */
export function isHtmlAttributeText(value: string): boolean {
  return !NOT_HTML.test(value);
}
