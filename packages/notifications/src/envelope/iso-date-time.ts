// `created_at`: an ISO 8601 date-time with seconds and a zone, as Date.parse reads it.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

const ZERO = 0x30;

// Two digits at `at` (the pattern has already checked they are digits).
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - ZERO) * 10 + text.charCodeAt(at + 1) - ZERO;
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
  if (!ISO_DATE_TIME.test(text)) return false;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const zone = text.charCodeAt(text.length - 1) === 0x5a ? 0 : twoDigits(text, text.length - 5) * 100 + twoDigits(text, text.length - 2);
  const usual =
    month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) &&
    twoDigits(text, 11) <= 23 && twoDigits(text, 14) <= 59 && twoDigits(text, 17) <= 59 &&
    Math.floor(zone / 100) <= 23 && zone % 100 <= 59;
  return usual || !Number.isNaN(Date.parse(text));
}
