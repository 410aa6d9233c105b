/** Deepest nesting of objects and arrays a JSON answer may have; the spec's answers nest a few levels. */
export const MAX_ANSWER_DEPTH = 64;

/**
 * True when the text holds at most `max` opening brackets (`{` or `[`, in strings or not): it then cannot nest deeper
 * than `max`. Found with indexOf (native, no loop over every character): an answer of 50 batch elements has 52.
 */
function openersAtMost(text: string, max: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > max) return false;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > max) return false;
  return true;
}

/** True when the JSON text nests objects/arrays deeper than `max` (one linear pass, strings skipped, no recursion). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  if (openersAtMost(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
