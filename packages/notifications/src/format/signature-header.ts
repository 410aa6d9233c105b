import { NotificationRefusedError } from '../errors.ts';

/** The header that carries the signature of the default format. */
export const SIGNATURE_HEADER = 'gw-signature';

/** The parts of a `gw-signature` header: the signed time and one or more signatures. */
export interface SignatureHeader {
  /** Unix seconds, as text exactly as sent (it is part of what is signed). */
  readonly t: string;
  readonly signatures: readonly string[];
}

/** `t=<unix seconds>,v1=<signature>`; more `v1=` parts when the sender signs with several keys. */
export function formatSignatureHeader(t: string, signatures: readonly string[]): string {
  return [`t=${t}`, ...signatures.map((s) => `v1=${s}`)].join(',');
}

const UNIX_SECONDS = /^\d{1,12}$/;

/** Parses a `gw-signature` header; refuses (`no-signature`) a missing or unreadable one. Unknown parts are ignored. */
export function parseSignatureHeader(value: string | undefined): SignatureHeader {
  if (value === undefined || value.trim() === '') {
    throw new NotificationRefusedError(`No ${SIGNATURE_HEADER} header: an unsigned notification is never trusted.`, { reason: 'no-signature' });
  }
  let t: string | undefined;
  const signatures: string[] = [];
  // Comma-separated `key=value` parts, walked by index; keys and values are trimmed, the first `t` counts, an empty
  // `v1` is ignored. The next `=` is searched again only once passed, so a long header of parts without one is still
  // read in one pass.
  let at = -1;
  for (let start = 0; start <= value.length;) {
    let end = value.indexOf(',', start);
    if (end < 0) end = value.length;
    if (at < start) {
      at = value.indexOf('=', start);
      if (at < 0) at = Number.POSITIVE_INFINITY;
    }
    if (at < end) {
      const key = value.slice(start, at).trim();
      const text = value.slice(at + 1, end).trim();
      if (key === 't' && t === undefined) t = text;
      else if (key === 'v1' && text !== '') signatures.push(text);
    }
    start = end + 1;
  }
  if (t === undefined || !UNIX_SECONDS.test(t) || signatures.length === 0) {
    throw new NotificationRefusedError(`The ${SIGNATURE_HEADER} header is not "t=<unix seconds>,v1=<signature>".`, { reason: 'no-signature' });
  }
  return { t, signatures };
}
