import { createHash } from 'node:crypto';
import { createReferenceSigner, type ReferenceSigner } from './reference-signer.ts';
import type { SignableMessage } from './signable-message.ts';
import { SignerConfigError } from './signer-config-error.ts';
import { secretBytes, type SignerSecret } from './signer-secret.ts';

/** Options of `createSha256ConcatSigner`. */
export interface Sha256ConcatSignerOptions {
  /** The secret appended after the values (text as UTF-8, or bytes); must not be empty. Never printed or serialised. */
  readonly secret: SignerSecret;
  /**
   * The field paths whose values are concatenated, in this order (`['merchant_id', 'account_id', 'capture_orders[0].amount']`);
   * a path the message lacks contributes "". Default: every field, in message order.
   */
  readonly fields?: readonly string[];
}

function checkFields(fields: unknown): readonly string[] | undefined {
  if (fields === undefined) return undefined;
  if (!Array.isArray(fields) || fields.length === 0) {
    throw new SignerConfigError({ option: 'fields', problem: 'must be a non-empty array of field paths (leave it out to sign every field)' });
  }
  const seen = new Set<string>();
  fields.forEach((path: unknown, index) => {
    if (typeof path !== 'string' || path === '') {
      throw new SignerConfigError({ option: `fields[${index}]`, problem: 'must be a non-empty field path such as "merchant_id"' });
    }
    if (seen.has(path)) throw new SignerConfigError({ option: `fields[${index}]`, problem: `repeats "${path}"` });
    seen.add(path);
  });
  return Object.freeze([...(fields as string[])]);
}

function chosenValues(message: SignableMessage, fields: readonly string[] | undefined): string {
  if (!fields) return message.fields.map((field) => field.value).join('');
  const byPath = new Map(message.fields.map((field) => [field.path, field.value]));
  return fields.map((path) => byPath.get(path) ?? '').join('');
}

/**
 * An EXAMPLE signer for tests and the sandbox, not the gateway's algorithm (which is not shown): lowercase hex SHA-256
 * of the chosen field values concatenated (UTF-8), followed by the secret's bytes. Signs and verifies. Like every plain
 * concatenation it cannot tell where one value ends and the next begins, and it ignores fields it does not list.
 */
export function createSha256ConcatSigner(options: Sha256ConcatSignerOptions): ReferenceSigner {
  const secret = secretBytes(options, 'createSha256ConcatSigner');
  const fields = checkFields(options.fields);
  return createReferenceSigner({
    algorithm: 'sha256-concat',
    compute: (message) => createHash('sha256').update(chosenValues(message, fields), 'utf8').update(secret).digest('hex'),
  });
}
