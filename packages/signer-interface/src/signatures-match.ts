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
  const length = scratchA.write(expected, 0, 'utf8');
  if (scratchB.write(received, 0, 'utf8') !== length) return false;
  // Left in place afterwards: the buffers hold nothing the two strings do not already hold on the heap.
  return timingSafeEqual((viewsA[length] ??= scratchA.subarray(0, length)), (viewsB[length] ??= scratchB.subarray(0, length)));
}
