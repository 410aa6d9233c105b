// Responses are decoded by the operation's declared encoding, never by their Content-Type (UNKNOWNS U33).
import { operations, type OperationName } from '@gw/types';
import {
  decodeAlternativeRespon,
  decodeCardRespon,
  decodeCheckoutPage,
  DecodeError,
  type CheckoutPage,
  type DecodeErrorDetails,
  type DecodeFormat,
} from '@gw/xml-codec';
import { parseJsonKeepingNumberText, responseHasNumbers } from './exact-numbers.ts';
import { jsonNestsDeeperThan, MAX_ANSWER_DEPTH } from './json-depth.ts';
import { reconcileAdvice, type RequestIdentifiers } from './request-identifiers.ts';

/** How a response body is decoded. */
export interface DecodeResponseOptions {
  readonly exactNumbers: boolean;
  readonly maxInputBytes: number;
}

/** A decoded body: a record for JSON and XML, the page for HTML. */
export type DecodedBody = { readonly kind: 'record'; readonly record: Record<string, unknown> } | { readonly kind: 'page'; readonly page: CheckoutPage };

const RESPON_DECODERS: Readonly<Record<string, typeof decodeCardRespon | typeof decodeAlternativeRespon>> = {
  CardRespon: decodeCardRespon,
  AlternativeRespon: decodeAlternativeRespon,
};

// DecodeFormat names the codec's formats; JSON is this package's own, so the details widen it (see the report to xml-codec).
type ClientDecodeFormat = DecodeFormat | 'json';

function jsonFailure(failure: 'malformed' | 'type' | 'too-deep', message: string): DecodeError {
  const details = { format: 'json' as ClientDecodeFormat, failure, path: '' };
  return new DecodeError(details as unknown as DecodeErrorDetails, message);
}

function parseJsonRecord(text: string, exact: boolean): Record<string, unknown> {
  // JSON.parse with a reviver (exactNumbers) recurses, and so would every walk of the record after it.
  if (jsonNestsDeeperThan(text, MAX_ANSWER_DEPTH)) throw jsonFailure('too-deep', `the body nests objects or arrays more than ${MAX_ANSWER_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = exact ? parseJsonKeepingNumberText(text) : JSON.parse(text);
  } catch (error) {
    // V8's message quotes the body around the fault, which may hold card data: only the position is kept, and no cause.
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw jsonFailure('malformed', `the body is not valid JSON${position === undefined ? '' : ` (at character ${position})`}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw jsonFailure('type', `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  return value as Record<string, unknown>;
}

/** Decodes a 2xx body: JSON (numbers' wire text kept when asked), `respon` XML or the checkout page. */
export function decodeResponseBody(operation: OperationName, text: string, options: DecodeResponseOptions): DecodedBody {
  const op = operations[operation];
  const limits = { maxInputBytes: options.maxInputBytes };
  switch (op.responseEncoding) {
    case 'json':
      return { kind: 'record', record: parseJsonRecord(text, options.exactNumbers && responseHasNumbers(operation)) };
    case 'xml': {
      const decode = RESPON_DECODERS[op.responseSchema];
      if (!decode) throw new Error(`@gw/client: no XML decoder for ${op.responseSchema}`);
      return { kind: 'record', record: decode(text, limits) as Record<string, unknown> };
    }
    case 'html':
      return { kind: 'page', page: decodeCheckoutPage(text, limits) };
  }
}

/** A DecodeError of a response body that is too large (the transport stopped reading it). */
export function tooLargeBody(operation: OperationName, maxInputBytes: number): DecodeError {
  const format: ClientDecodeFormat = operations[operation].responseEncoding;
  return new DecodeError(
    { format, failure: 'too-large', path: '' } as DecodeErrorDetails,
    `the response body is larger than maxInputBytes (${maxInputBytes} bytes)`,
  );
}

/**
 * The same DecodeError with the operation named and, for money-moving operations, the outcome marked unknown with
 * the request's identifiers: an answer came, so the request reached the gateway, but it cannot be read.
 */
export function withOperation(error: DecodeError, operation: OperationName, identifiers: RequestIdentifiers | null): DecodeError {
  const details = { ...error.details, operation, outcome: identifiers ? ('unknown' as const) : null, identifiers };
  const tail = error.message.slice(error.message.indexOf('): ') + 3);
  const advice = identifiers ? `; the request reached the gateway, so its outcome is unknown: ${reconcileAdvice(operation, identifiers)}` : '';
  return new DecodeError(details, `the ${operation} response cannot be read: ${tail}${advice}`, { cause: error });
}
