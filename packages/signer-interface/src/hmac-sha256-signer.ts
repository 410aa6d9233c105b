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

/** A pair of the signing text: `path=value` escaped, and its path's code-point key. */
type Pair = { readonly key: string; readonly text: string };

// By path, then (equal paths) by the pair's text.
function comparePairs(a: Pair, b: Pair): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  const [x, y] = [codePointKey(a.text), codePointKey(b.text)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The text the reference HMAC signs: `path=value` pairs sorted by path (code-point order, then pair), joined by `&`. */
export function hmacSha256SigningText(message: SignableMessage): string {
  assertSignableMessage(message);
  return signingText(message.fields);
}

// The signing text of a message's fields (the reference signer has already checked the message).
function signingText(fields: readonly SignableField[]): string {
  // Each pair is inserted where a binary search puts it: Array#sort allocates about 1 KB of state on every call, more
  // than the rest of a small message (two fields for a notification).
  const sorted = new Array<Pair>(fields.length);
  for (let count = 0; count < fields.length; count++) {
    const { path, value } = fields[count]!;
    const pair = { key: codePointKey(path), text: `${escapePart(path)}=${escapePart(value)}` };
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePairs(sorted[middle]!, pair) <= 0) low = middle + 1;
      else high = middle;
    }
    for (let at = count; at > low; at--) sorted[at] = sorted[at - 1]!;
    sorted[low] = pair;
  }
  let text = '';
  for (let i = 0; i < sorted.length; i++) text += i === 0 ? sorted[i]!.text : `&${sorted[i]!.text}`;
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
    compute: (message) => createHmac('sha256', key).update(signingText(message.fields), 'utf8').digest('hex'),
  });
}
