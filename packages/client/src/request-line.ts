import type { OperationSpec, RequestEncoding } from '@gw/types';

/** The path and headers every call of one operation sends; only the body differs between calls. */
export interface RequestLine {
  /** The path under the base URL's origin, e.g. `/v1/capture` (or `/gw/v1/capture` for a base URL `https://host/gw`). */
  readonly path: string;
  /** Every header set on the request, lower-case names, Content-Type included. */
  readonly headers: Readonly<Record<string, string>>;
}

const MEDIA_TYPES: Readonly<Record<RequestEncoding, string>> = { json: 'application/json', form: 'application/x-www-form-urlencoded', xml: 'application/xml' };

/** What decides a request line besides the operation: the base URL and the options that change headers. */
export interface RequestLineOptions {
  readonly baseUrl: string;
  /** The encoding the body is sent in (the spec's, or an `encodingOverrides` entry, UNKNOWNS U31). */
  readonly encoding: RequestEncoding;
  /** `jsonContentType` (UNKNOWNS U32): the Content-Type of JSON bodies instead of the spec's media type. */
  readonly jsonContentType: string | null;
  /** Static headers (UNKNOWNS U33); a Content-Type here wins over every other. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The request line of an operation, built from the generated operation table: its path under the base URL, and the
 * spec's request media type as Content-Type (the encoding's media type when `encodingOverrides` changes it).
 */
export function requestLine(op: OperationSpec, options: RequestLineOptions): RequestLine {
  const prefix = new URL(options.baseUrl).pathname.replace(/\/+$/, '');
  let contentType = options.encoding === op.requestEncoding ? op.requestMediaType : MEDIA_TYPES[options.encoding];
  if (options.encoding === 'json' && options.jsonContentType) contentType = options.jsonContentType;
  const headers: Record<string, string> = { 'content-type': contentType };
  for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value;
  return { path: `${prefix}${op.path}`, headers: Object.freeze(headers) };
}
