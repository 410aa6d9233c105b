import { assertSignableMessage } from './assert-signable-message.ts';
import { createHmacSha256 } from './hmac-sha256.ts';
import { createReferenceSigner, type ReferenceSigner } from './reference-signer.ts';
import { signingLeaves, type SignableMessage } from './signable-message.ts';
import { secretBytes, type SignerSecret } from './signer-secret.ts';

/** Options of `createHmacSha256Signer`. */
export interface HmacSha256SignerOptions {
  /** The shared secret (text as UTF-8, or bytes); must not be empty. Kept private: never printed or serialised. */
  readonly secret: SignerSecret;
}

/** Longest value looked through character by character; a longer one is searched three times (see escapePart). */
const SHORT_VALUE = 64;

// %, & and = are escaped so that a value such as "1&b=2" cannot pass for two pairs.
function escapePart(text: string): string {
  // A short value (most fields: ids, amounts, codes) is checked in one pass over its characters; a long one (a
  // notification's body) with three searches, about half the time of a pattern there.
  if (text.length <= SHORT_VALUE) {
    let i = 0;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x25 || code === 0x26 || code === 0x3d) break;
    }
    if (i === text.length) return text;
  } else if (text.indexOf('%') < 0 && text.indexOf('&') < 0 && text.indexOf('=') < 0) return text;
  return text.replaceAll('%', '%25').replaceAll('&', '%26').replaceAll('=', '%3D');
}

const SURROGATE = /[\uD800-\uDFFF]/;
const NUL_OR_SURROGATE = /[\u0000\uD800-\uDFFF]/;

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

/** The text the reference HMAC signs: `path=value` pairs sorted by path (code-point order, then value), joined by `&`. */
export function hmacSha256SigningText(message: SignableMessage): string {
  assertSignableMessage(message);
  // Fastest (messages from createSignableMessage): the walk already knows the order by path, no two paths are equal
  // and none needs escaping (see PathOrder).
  const leaves = signingLeaves(message);
  const order = leaves?.pathOrder;
  if (leaves && order) {
    // Appended in place, not joined from an array of pairs: the engine keeps the pieces as a rope that the HMAC's
    // one UTF-8 write flattens, so a long value (a notification's whole body) is copied once, not three times.
    const { paths, values } = leaves;
    let text = '';
    for (let i = 0; i < order.length; i++) {
      const leaf = order[i]!;
      text += i === 0 ? `${paths[leaf]!}=` : `&${paths[leaf]!}=`;
      text += escapePart(values[leaf]!);
    }
    return text;
  }
  const fields = message.fields;
  // Fast path: sort `path NUL pair` keys with the engine's own string sort. Without surrogates, UTF-16 order is
  // code-point order, and with no NUL inside a path, NUL (lowest of all) makes a shorter path sort before its
  // extensions exactly as comparing paths first would.
  const keys: string[] = new Array(fields.length);
  let simple = true;
  for (let i = 0; i < fields.length; i++) {
    const { path, value } = fields[i]!;
    // Tested on the parts, not the joined key: a regex over a freshly concatenated string flattens it first.
    if (simple && (NUL_OR_SURROGATE.test(path) || SURROGATE.test(value))) simple = false;
    keys[i] = `${path}\u0000${escapePart(path)}=${escapePart(value)}`;
  }
  if (simple) {
    keys.sort();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      keys[i] = key.slice(key.indexOf('\u0000') + 1);
    }
    return keys.join('&');
  }
  return fields
    .map((field) => ({ path: field.path, pair: `${escapePart(field.path)}=${escapePart(field.value)}` }))
    .sort((a, b) => compareCodePoints(a.path, b.path) || compareCodePoints(a.pair, b.pair))
    .map((entry) => entry.pair)
    .join('&');
}

/**
 * An EXAMPLE signer for tests and the sandbox, not the gateway's algorithm (which is not shown): lowercase hex
 * HMAC-SHA256, keyed with the secret, over the sorted `path=value` pairs joined by `&`. Signs and verifies.
 */
export function createHmacSha256Signer(options: HmacSha256SignerOptions): ReferenceSigner {
  const bytes = secretBytes(options, 'createHmacSha256Signer');
  const hmac = createHmacSha256(bytes);
  bytes.fill(0); // the padded keys in createHmacSha256 are its own copies
  return createReferenceSigner({
    algorithm: 'hmac-sha256-sorted-pairs',
    compute: (message) => {
      // A message from createSignableMessage whose walk knew the order by path: its pairs are written straight into
      // the hash input (no signing text is made, a long value such as a notification's body is never copied into one).
      const leaves = signingLeaves(message);
      const order = leaves?.pathOrder;
      return leaves && order ? hmac.pairs(leaves.paths, leaves.values, order, escapePart) : hmac(hmacSha256SigningText(message));
    },
  });
}
