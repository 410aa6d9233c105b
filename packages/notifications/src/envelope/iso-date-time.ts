// `created_at`: an ISO 8601 date-time with seconds and a zone, as Date.parse reads it. The form is
// /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/, checked character by character.

const ZERO = 0x30;
// The date and time part: `d` for a digit, any other character stands for itself.
const FORM = 'dddd-dd-ddTdd:dd:dd';
const DIGIT = 0x64; // d

function isDigit(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c >= ZERO && c <= ZERO + 9;
}

// Two digits at `at` (already checked to be digits).
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - ZERO) * 10 + text.charCodeAt(at + 1) - ZERO;
}

// True when `text` has the form above (the characters only, not the ranges).
function hasForm(text: string): boolean {
  if (text.length < 20) return false;
  for (let i = 0; i < FORM.length; i++) {
    const expected = FORM.charCodeAt(i);
    if (expected === DIGIT ? !isDigit(text, i) : text.charCodeAt(i) !== expected) return false;
  }
  let at = 19;
  if (text.charCodeAt(at) === 0x2e) {
    const digits = at + 1;
    while (at + 1 < text.length && isDigit(text, at + 1)) at += 1;
    if (at + 1 === digits || at + 1 - digits > 9) return false;
    at += 1;
  }
  if (text.charCodeAt(at) === 0x5a) return at === text.length - 1; // Z
  const sign = text.charCodeAt(at);
  if ((sign !== 0x2b && sign !== 0x2d) || text.length - at !== 6) return false;
  return isDigit(text, at + 1) && isDigit(text, at + 2) && text.charCodeAt(at + 3) === 0x3a && isDigit(text, at + 4) && isDigit(text, at + 5);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * True for an ISO 8601 date-time (`2026-11-23T17:04:05.123Z`, or a `±hh:mm` zone) that `Date.parse` reads. The usual
 * value (a real calendar day, hours 00-23, minutes and seconds 00-59, a zone within ±23:59) is checked by its digits;
 * anything else (hour 24, second 60, zone hour 24 or more, ...) is left to `Date.parse`, so both accept exactly the same.
 */
export function isIsoDateTime(text: string): boolean {
  if (!hasForm(text)) return false;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const zoned = text.charCodeAt(text.length - 1) !== 0x5a;
  const usual =
    month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) &&
    twoDigits(text, 11) <= 23 && twoDigits(text, 14) <= 59 && twoDigits(text, 17) <= 59 &&
    (!zoned || (twoDigits(text, text.length - 5) <= 23 && twoDigits(text, text.length - 2) <= 59));
  return usual || !Number.isNaN(Date.parse(text));
}
