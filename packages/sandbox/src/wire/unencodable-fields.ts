// XML and HTML cannot carry control characters, U+FFFE/U+FFFF or lone surrogates; a respon or checkout page echoes
// request fields, so such a request is refused before anything happens rather than half-processed.
import type { DecodedProblem } from './decoded-value.ts';

const NOT_XML_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every string in `record` an XML or HTML answer could not echo, found by an iterative walk (no recursion). */
export function fieldsXmlCannotCarry(record: unknown): DecodedProblem[] {
  const problems: DecodedProblem[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: record, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (NOT_XML_TEXT.test(value)) problems.push({ path, message: 'contains a character XML and HTML cannot carry' });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]` });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], path: path ? `${path}.${entries[i]![0]}` : entries[i]![0] });
    }
  }
  return problems;
}
