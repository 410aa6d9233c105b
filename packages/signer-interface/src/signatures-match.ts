import { timingSafeEqual } from 'node:crypto';

/** The two signature texts to compare, named so they cannot be swapped by position. */
export interface SignaturesMatchOptions {
  /** The signature computed locally. */
  readonly expected: string;
  /** The signature that arrived (any value: a non-string never matches). */
  readonly received: unknown;
}

/** Compares two signature texts in constant time; different lengths or a non-string give false, never a throw. */
export function signaturesMatch(options: SignaturesMatchOptions): boolean {
  const { expected, received } = options;
  if (typeof expected !== 'string' || typeof received !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  // timingSafeEqual throws on unequal lengths; the length of a signature is not a secret.
  return a.length === b.length && timingSafeEqual(a, b);
}
