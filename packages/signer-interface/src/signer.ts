import type { SignableMessage } from './signable-message.ts';

/** Produces the `encryption_data` text of a message; sync or async (an HSM or a signing service). */
export interface Signer {
  sign(message: SignableMessage): string | Promise<string>;
}
