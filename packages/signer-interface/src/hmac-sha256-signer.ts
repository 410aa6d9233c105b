import { createHmac, createSecretKey } from 'node:crypto';
import { assertSignableMessage } from './assert-signable-message.ts';
import { createReferenceSigner, type ReferenceSigner } from './reference-signer.ts';
import type { SignableField } from './signable-field.ts';
import type { SignableMessage } from './signable-message.ts';
import { secretBytes, type SignerSecret } from './signer-secret.ts';

/** Options of `createHmacSha256Signer`. */
export interface HmacSha256SignerOptions {
  /** The shared secret (text as UTF-8, or bytes); must not be empty. Kept private: never printed or serialised. */
  readonly secret: SignerSecret;
}

// %, & and = are escaped so that a value such as "1&b=2" cannot pass for two pairs. String searches, not a regular
// expression: a match would leave the value (a card number) in RegExp.input, process-wide, after the call.
function escapePart(text: string): string {
  if (!text.includes('%') && !text.includes('&') && !text.includes('=')) return text;
  return text.replaceAll('%', '%25').replaceAll('&', '%26').replaceAll('=', '%3D');
}

// Code-point order (the order of UTF-8 bytes, and of most languages' string sorts) is JavaScript's UTF-16 order except
// where a surrogate (half of an astral code point) meets a unit of U+E000..U+FFFF, which it must follow. This gives a
// text whose UTF-16 order is the code-point order of `text`: `text` itself unless it holds a unit from U+D800 up.
function codePointKey(text: string): string {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) < 0xd800) i++;
  if (i === text.length) return text;
  let key = text.slice(0, i);
  for (; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    key += String.fromCharCode(unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);
  }
  return key;
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The text the reference HMAC signs: `path=value` pairs sorted by path (code-point order, then pair), joined by `&`. */
export function hmacSha256SigningText(message: SignableMessage): string {
  assertSignableMessage(message);
  const pairs = message.fields.map((field) => ({ key: codePointKey(field.path), field }));
  // Equal paths are ordered by their values as escaped in the text: the order of their pairs.
  const valueKey = (field: SignableField): string => codePointKey(escapePart(field.value));
  pairs.sort((a, b) => compareKeys(a.key, b.key) || compareKeys(valueKey(a.field), valueKey(b.field)));
  let text = '';
  for (let i = 0; i < pairs.length; i++) {
    const { path, value } = pairs[i]!.field;
    text += `${i === 0 ? '' : '&'}${escapePart(path)}=${escapePart(value)}`;
  }
  return text;
}

/**
 * An EXAMPLE signer for tests and the sandbox, not the gateway's algorithm (which is not shown): lowercase hex
 * HMAC-SHA256 (`node:crypto` `createHmac`), keyed with the secret, over `hmacSha256SigningText(message)`. Signs and
 * verifies. Each call makes its own Hmac and keeps nothing afterwards.
 */
export function createHmacSha256Signer(options: HmacSha256SignerOptions): ReferenceSigner {
  const bytes = secretBytes(options, 'createHmacSha256Signer');
  // A KeyObject holds its own copy outside the JavaScript heap; createHmac keyed with one costs a seventh of createHmac
  // keyed with a Buffer, which makes a key from it on every call.
  const key = createSecretKey(bytes);
  bytes.fill(0);
  return createReferenceSigner({
    algorithm: 'hmac-sha256-sorted-pairs',
    compute: (message) => createHmac('sha256', key).update(hmacSha256SigningText(message), 'utf8').digest('hex'),
  });
}
