import { createHmac, createSecretKey } from 'node:crypto';
import { assertSignableMessage } from './assert-signable-message.ts';
import { createReferenceSigner, type ReferenceSigner } from './reference-signer.ts';
import type { SignableMessage } from './signable-message.ts';
import { secretBytes, type SignerSecret } from './signer-secret.ts';

/** Options of `createHmacSha256Signer`. */
export interface HmacSha256SignerOptions {
  /** The shared secret (text as UTF-8, or bytes); must not be empty. Kept private: never printed or serialised. */
  readonly secret: SignerSecret;
}

// %, & and = are escaped so that a value such as "1&b=2" cannot pass for two pairs. String searches, not a regular
// expression: a regex match would leave the value in RegExp.input / RegExp.lastMatch, process-wide, after the call.
function escapePart(text: string): string {
  if (!text.includes('%') && !text.includes('&') && !text.includes('=')) return text; // most values hold none
  return text.replaceAll('%', '%25').replaceAll('&', '%26').replaceAll('=', '%3D');
}

// Code-point order (the order of UTF-8 bytes, and of most languages' string sorts), not JavaScript's UTF-16 order.
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

// Surrogates (astral code points) rank above U+E000..U+FFFF, as their code points do.
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** The text the reference HMAC signs: `path=value` pairs sorted by path (code-point order, then pair), joined by `&`. */
export function hmacSha256SigningText(message: SignableMessage): string {
  assertSignableMessage(message);
  return message.fields
    .map((field) => ({ path: field.path, pair: `${escapePart(field.path)}=${escapePart(field.value)}` }))
    .sort((a, b) => compareCodePoints(a.path, b.path) || compareCodePoints(a.pair, b.pair))
    .map((entry) => entry.pair)
    .join('&');
}

/**
 * An EXAMPLE signer for tests and the sandbox, not the gateway's algorithm (which is not shown): lowercase hex
 * HMAC-SHA256, keyed with the secret, over `hmacSha256SigningText(message)`. Signs and verifies. Each call makes its
 * own node:crypto Hmac and keeps nothing afterwards; the key lives in a KeyObject, outside the JavaScript heap.
 */
export function createHmacSha256Signer(options: HmacSha256SignerOptions): ReferenceSigner {
  const bytes = secretBytes(options, 'createHmacSha256Signer');
  const key = createSecretKey(bytes);
  bytes.fill(0); // the KeyObject holds its own copy
  return createReferenceSigner({
    algorithm: 'hmac-sha256-sorted-pairs',
    compute: (message) => createHmac('sha256', key).update(hmacSha256SigningText(message), 'utf8').digest('hex'),
  });
}
