import { redactText } from './redact.ts';

const MAX_CHARS = 200;

/** The name and message of something thrown (by a signer, verifier or decoder), card data redacted and cut short. */
export function describeThrown(value: unknown): { readonly name: string; readonly text: string } {
  const name = value instanceof Error ? value.name : typeof value;
  let raw: string;
  try {
    raw = value instanceof Error ? value.message : String(value);
  } catch {
    raw = '(unprintable)';
  }
  const text = redactText(raw.length > MAX_CHARS ? `${raw.slice(0, MAX_CHARS)}…` : raw);
  return { name, text: text === '' ? '(no message)' : text };
}
