/**
 * True when `text` is a JSON object or array cut short: it ends inside a string or with brackets still open. Used only
 * after `JSON.parse` failed, to tell a truncated body from a malformed one.
 */
export function endsInsideJson(text: string): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return inString || depth > 0;
}
