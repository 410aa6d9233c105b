// `created_at`: an ISO 8601 date-time with seconds and a zone (`2026-11-23T17:04:05.123Z`, `…+05:30`).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** True for an ISO 8601 date-time with seconds and a zone that `Date.parse` reads. */
export function isIsoDateTime(text: string): boolean {
  return ISO_DATE_TIME.test(text) && !Number.isNaN(Date.parse(text));
}
