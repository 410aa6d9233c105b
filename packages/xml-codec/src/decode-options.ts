import { DecodeError, type DecodeFormat } from './decode-error.ts';

/** Default cap on a decoder's input, 1 MiB. UNKNOWNS U51: the seed shows no size limit. */
export const DEFAULT_MAX_INPUT_BYTES = 1_048_576;

/** Options every decoder takes. */
export interface DecodeOptions {
  /** Largest input accepted, in UTF-8 bytes; larger input is refused with `DecodeError` `too-large`. Default 1 MiB. */
  readonly maxInputBytes?: number;
}

/** A decoder's input: text, or the UTF-8 bytes of a response body. */
export type DecodeInput = string | Uint8Array;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Checks the size limit and returns the input as text; every failure is a DecodeError. */
export function readDecodeInput(input: unknown, options: DecodeOptions | undefined, format: DecodeFormat): string {
  const max = options?.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  if (typeof input === 'string') {
    // A UTF-16 unit takes 1 to 3 UTF-8 bytes, so the exact count is only needed in the band between.
    if (input.length > max || (input.length * 3 > max && Buffer.byteLength(input, 'utf8') > max)) throw tooLarge(format, max);
    return input;
  }
  if (input instanceof Uint8Array) {
    if (input.byteLength > max) throw tooLarge(format, max);
    try {
      return utf8.decode(input);
    } catch (cause) {
      throw new DecodeError({ format, failure: 'not-text', path: '' }, 'the bytes are not valid UTF-8', { cause });
    }
  }
  throw new DecodeError({ format, failure: 'not-text', path: '' }, `expected a string or a Uint8Array, got ${input === null ? 'null' : typeof input}`);
}

function tooLarge(format: DecodeFormat, max: number): DecodeError {
  return new DecodeError({ format, failure: 'too-large', path: '' }, `the input is larger than maxInputBytes (${max} bytes)`);
}
