export type { Signer } from './signer.ts';
export type { Verifier } from './verifier.ts';
export type { SignableField } from './signable-field.ts';
export {
  createSignableMessage,
  type CreateSignableMessageOptions,
  type SignableMessage,
  type SignableOperation,
} from './signable-message.ts';
export { flattenRecord } from './flatten-record.ts';
export { omitEncryptionData } from './omit-encryption-data.ts';
export { signaturesMatch, type SignaturesMatchOptions } from './signatures-match.ts';
export type { SignerSecret } from './signer-secret.ts';
export type { ReferenceSigner } from './reference-signer.ts';
export { createHmacSha256Signer, hmacSha256SigningText, type HmacSha256SignerOptions } from './hmac-sha256-signer.ts';
export { createSha256ConcatSigner, type Sha256ConcatSignerOptions } from './sha256-concat-signer.ts';
export { SignableMessageError, type SignableMessageErrorDetails } from './signable-message-error.ts';
export { SignerConfigError } from './signer-config-error.ts';
