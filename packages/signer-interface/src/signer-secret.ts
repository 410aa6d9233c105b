import { SignerConfigError } from './signer-config-error.ts';

/** A signing secret: text (taken as UTF-8) or raw bytes. */
export type SignerSecret = string | Uint8Array;

/** Checks a secret option and returns a private copy of its bytes; errors name the option, never the value. */
export function secretBytes(options: unknown, factory: string): Buffer {
  if (options === null || typeof options !== 'object') {
    throw new SignerConfigError({ option: factory, problem: 'needs an options object: { secret }' });
  }
  const secret: unknown = (options as { secret?: unknown }).secret;
  if (secret === undefined) throw new SignerConfigError({ option: 'secret', problem: `${factory} needs a secret` });
  if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) {
    throw new SignerConfigError({ option: 'secret', problem: `must be a string or a Uint8Array, not ${secret === null ? 'null' : typeof secret}` });
  }
  const source = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  // Buffer.alloc, not Buffer.from: small Buffer.from copies share a pooled slab with unrelated buffers.
  const bytes = Buffer.alloc(source.byteLength);
  bytes.set(source);
  if (bytes.length === 0) throw new SignerConfigError({ option: 'secret', problem: 'must not be empty' });
  return bytes;
}
