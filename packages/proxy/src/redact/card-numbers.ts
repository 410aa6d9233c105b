// Card numbers found in free text by what they are (a digit run passing the Luhn check), wherever they stand.
import { REDACTED } from '@gw/client';

/** Card numbers are 12 to 19 digits (ISO/IEC 7812); a run is searched for a Luhn-valid window of these lengths. */
const SHORTEST = 12;
const LONGEST = 19;
/** A run longer than this many digits is masked whole, unsearched: it may hide a card number and shows nothing useful. */
const UNSEARCHED = 64;
/**
 * Digits, each maybe after up to two separators (space, dash, dot, tab, no-break space, `+`, or `%20` / `%2D` as a
 * URL writes them): `4111 1111-1111 1111`, `4111%201111%201111%201111`.
 */
const DIGIT_RUN = /\d(?:(?:[ \t\u00a0.+-]|%20|%2[dD]){0,2}\d)*/g;

/** True when `digits` (a string of 0-9) passes the Luhn check. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i -= 1, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** True when some 12 to 19 consecutive digits of `digits` pass the Luhn check: a card number may stand there. */
export function holdsCardNumber(digits: string): boolean {
  if (digits.length < SHORTEST) return false;
  for (let length = SHORTEST; length <= Math.min(LONGEST, digits.length); length += 1) {
    for (let start = 0; start + length <= digits.length; start += 1) if (passesLuhn(digits.slice(start, start + length))) return true;
  }
  return false;
}

/** True when `text` holds fewer than `count` digits in all: no card number can stand in it. */
function fewerDigitsThan(text: string, count: number): boolean {
  let seen = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++seen >= count) return false;
  }
  return true;
}

/**
 * `text` with every digit run that may hold a card number (12+ digits, separators between them allowed, with a
 * Luhn-valid window) replaced by `[redacted]`; other text, and shorter or non-Luhn runs, unchanged.
 */
export function maskCardNumbers(text: string): string {
  // Most texts of a report (member names, codes) hold few digits: those are returned as they are, unsearched.
  if (fewerDigitsThan(text, SHORTEST)) return text;
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/%2[0dD]/g, '').replace(/\D/g, '');
    return digits.length > UNSEARCHED || holdsCardNumber(digits) ? REDACTED : run;
  });
}
