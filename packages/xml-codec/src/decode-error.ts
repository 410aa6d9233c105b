import { GW_ERROR_CODES, GwError } from '@gw/types';

/** What a decoder was reading when it failed. */
export type DecodeFormat = 'xml' | 'html' | 'items';

/** Why a decoder refused its input: a stable sub-code for callers that branch on the failure. */
export type DecodeFailure =
  /** The input is larger than `maxInputBytes`. */
  | 'too-large'
  /** The input is not text (wrong type, or bytes that are not UTF-8). */
  | 'not-text'
  /** The parser could not read the document. */
  | 'malformed'
  /** The document carries a DOCTYPE declaration; DTDs and entity definitions are never processed. */
  | 'doctype'
  /** The root element is missing, repeated or has another name. */
  | 'root'
  /** An element appears more than once where the spec allows one. */
  | 'repeated'
  /** An element's content does not fit the type the spec gives it. */
  | 'type'
  /** Elements are nested deeper than `MAX_XML_DEPTH` (100). */
  | 'too-deep'
  /** An element is named like a JavaScript object member (`__proto__`, `constructor`, `toString`, ...). */
  | 'reserved-name'
  /** The page has no form. */
  | 'no-form'
  /** An `items` record does not have four components. */
  | 'items-shape';

/** Context of a decode failure: the format, the stable failure kind and where in the document it happened. */
export interface DecodeErrorDetails {
  readonly format: DecodeFormat;
  readonly failure: DecodeFailure;
  /** Where the problem is, e.g. `respon.risk_score`, `items[2]`, `form`; `''` for the whole input. */
  readonly path: string;
}

/** The only error a decoder of this package throws: code `GW_DECODE`, a stable `failure` and the `path` of the problem. */
export class DecodeError extends GwError<DecodeErrorDetails> {
  override readonly name = 'DecodeError';

  constructor(details: DecodeErrorDetails, message: string, options?: { cause?: unknown }) {
    // Messages name places and kinds only, never element text: card data must not reach a log line.
    super(
      GW_ERROR_CODES.decode,
      `${details.format} decode failed (${details.failure}${details.path ? ` at ${details.path}` : ''}): ${message}`,
      details,
      options,
    );
  }

  /** The stable failure kind, e.g. `doctype` or `too-large`. */
  get failure(): DecodeFailure {
    return this.details.failure;
  }

  /** Where the problem is in the document. */
  get path(): string {
    return this.details.path;
  }
}
