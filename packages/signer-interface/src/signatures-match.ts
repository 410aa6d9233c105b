import { timingSafeEqual } from 'node:crypto';

/** The two signature texts to compare, named so they cannot be swapped by position. */
export interface SignaturesMatchOptions {
  /** The signature computed locally. */
  readonly expected: string;
  /** The signature that arrived (any value: a non-string never matches). */
  readonly received: unknown;
}

// Signatures are short (a hex HMAC is 64 characters): they are compared in two reused scratch buffers instead of two
// fresh Buffers per check. UTF-8 needs at most 3 bytes per UTF-16 unit, so a text up to SHORT units always fits.
const SHORT = 256;
const scratchA = Buffer.alloc(SHORT * 3);
const scratchB = Buffer.alloc(SHORT * 3);
// Views of the first n bytes of each, made once per length: the usual signature has one length.
const viewsA: Buffer[] = [];
const viewsB: Buffer[] = [];

// Writes `text` as UTF-8 at the start of `target` and returns its byte length. An ASCII text (every hex or base64
// signature) is copied by character, every character whatever it holds (no early exit): its UTF-8 bytes are its
// character codes, and a call into Buffer#write costs several times this copy of 64 characters.
function writeUtf8(target: Buffer, text: string): number {
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    seen |= code;
    target[i] = code;
  }
  return seen < 0x80 ? text.length : target.write(text, 0, 'utf8');
}

/** Compares two signature texts in constant time; different lengths or a non-string give false, never a throw. */
export function signaturesMatch(options: SignaturesMatchOptions): boolean {
  const { expected, received } = options;
  if (typeof expected !== 'string' || typeof received !== 'string') return false;
  if (expected.length > SHORT || received.length > SHORT) {
    const a = Buffer.from(expected, 'utf8');
    const b = Buffer.from(received, 'utf8');
    // timingSafeEqual throws on unequal lengths; the length of a signature is not a secret.
    return a.length === b.length && timingSafeEqual(a, b);
  }
  // Synchronous from write to compare, so no other call can use the scratch buffers in between.
  const length = writeUtf8(scratchA, expected);
  if (writeUtf8(scratchB, received) !== length) return false;
  // Left in place afterwards: the buffers hold nothing the two strings do not already hold on the heap.
  return timingSafeEqual((viewsA[length] ??= scratchA.subarray(0, length)), (viewsB[length] ??= scratchB.subarray(0, length)));
}
