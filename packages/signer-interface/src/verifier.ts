import type { SignableMessage } from './signable-message.ts';

/**
 * Checks an `encryption_data` text against a message; sync or async. Returns false for any signature that does not
 * match, including empty or malformed ones, rather than throwing. `message` and `signature` have different types, so a
 * swapped call is a compile error.
 */
export interface Verifier {
  verify(message: SignableMessage, signature: string): boolean | Promise<boolean>;
}
