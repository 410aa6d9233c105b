import { checkoutForm, copyRecordGraph, isCardDataField, secretFields } from '@gw/types';

/** What a secret value is replaced with in hook payloads, error details and body excerpts. */
export const REDACTED = '[redacted]';

// The checkout page's hidden field that repeats every parameter as one query string (UNKNOWNS U21).
const ALL_PARAMS: string = checkoutForm.allParamsField;
const EXCERPT_CHARS = 300;

/** True for a field name marked `x-gw-secret` (card number, security code, expiry). */
export function isSecretField(name: string): boolean {
  return isCardDataField(name);
}

/** A deep copy of a record with every secret field (at any depth) replaced by "[redacted]". */
export function redactRecord<T>(value: T): T {
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  return copyRecordGraph(value, (source, target, copyOf) => {
    if (Array.isArray(source)) {
      for (const item of source) (target as unknown[]).push(copyOf(item));
      return;
    }
    for (const [key, member] of Object.entries(source)) {
      if (key === '__proto__') continue;
      (target as Record<string, unknown>)[key] =
        isCardDataField(key) && member !== undefined && member !== ''
          ? REDACTED
          : key === ALL_PARAMS && typeof member === 'string'
            ? redactQueryString(member)
            : copyOf(member);
    }
  });
}

const names = secretFields.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
// A secret field's value in JSON ("card":"…"), XML (<card>…</card>), form bodies (card=…) and HTML inputs (name=card value=…).
const SECRET_JSON = new RegExp(`("(?:${names})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?[\\d.eE+-]+)`, 'g');
const SECRET_XML = new RegExp(`(<(${names})(?:\\s[^>]*)?>)([^<]*)(</\\2\\s*>)`, 'g');
const SECRET_FORM = new RegExp(`((?:^|[&?;\\s])(?:${names})=)([^&\\s]*)`, 'g');
const SECRET_HTML = new RegExp(`(name\\s*=\\s*["']?(?:${names})["']?[^>]*?value\\s*=\\s*)("[^"]*"|'[^']*'|[^\\s>]*)`, 'gi');
// 12 to 19 digits, possibly grouped by spaces or dashes: the shape of a card number.
const DIGIT_RUN = /(?<![\dA-Za-z])\d(?:[ -]?\d){11,18}(?![\dA-Za-z])/g;

function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return part;
  }
}

/**
 * A query string (the checkout page's `allParams`) with card data taken out: the value of every secret field, and
 * any run of 12 to 19 digits in another value (a card number under an alias such as `cardNo`).
 */
function redactQueryString(text: string): string {
  return text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const rawName = pair.slice(0, eq);
      if (isCardDataField(decodeFormPart(rawName))) return `${rawName}=${REDACTED}`;
      const value = decodeFormPart(pair.slice(eq + 1));
      const cleaned = value.replace(DIGIT_RUN, REDACTED);
      return cleaned === value ? pair : `${rawName}=${encodeURIComponent(cleaned)}`;
    })
    .join('&');
}

/**
 * Free text (a response body, a gateway message) with card data taken out: the values of secret fields in JSON, XML,
 * form and HTML shapes, and any run of 12 to 19 digits, whatever field it sits in. Free text only: records keep their
 * values (a numeric transaction id in error details must survive), with secret fields redacted by name.
 */
export function redactText(text: string): string {
  return text
    .replace(SECRET_JSON, (_m, head: string) => `${head}"${REDACTED}"`)
    .replace(SECRET_XML, (_m, open: string, _name: string, _value: string, close: string) => `${open}${REDACTED}${close}`)
    .replace(SECRET_FORM, (_m, head: string) => `${head}${REDACTED}`)
    .replace(SECRET_HTML, (_m, head: string) => `${head}"${REDACTED}"`)
    .replace(DIGIT_RUN, REDACTED);
}

/** The start of a body for an error message: card data redacted first, then cut to a few hundred characters. */
export function bodyExcerpt(body: string): string {
  const redacted = redactText(body);
  return redacted.length > EXCERPT_CHARS ? `${redacted.slice(0, EXCERPT_CHARS)}… (${body.length} characters in all)` : redacted;
}
