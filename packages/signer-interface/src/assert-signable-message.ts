import type { SignableField } from './signable-field.ts';
import { isBuiltSignableMessage, type SignableMessage } from './signable-message.ts';
import { SignableMessageError } from './signable-message-error.ts';

/** Refuses anything that is not a message from `createSignableMessage` (for plain-JS callers and swapped arguments). */
export function assertSignableMessage(message: unknown): asserts message is SignableMessage {
  if (isBuiltSignableMessage(message)) return;
  const candidate = message as Partial<SignableMessage> | null;
  const ok =
    candidate !== null &&
    typeof candidate === 'object' &&
    Array.isArray(candidate.fields) &&
    candidate.fields.every((field: Partial<SignableField> | null) => typeof field?.path === 'string' && typeof field.value === 'string') &&
    candidate.body instanceof Uint8Array &&
    typeof candidate.operation?.name === 'string';
  if (!ok) {
    throw new SignableMessageError('Expected a SignableMessage built by createSignableMessage({ operation, record, body }).', {
      valueType: message === null ? 'null' : typeof message,
    });
  }
}
