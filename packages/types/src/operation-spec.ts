/** How a request body travels on the wire. */
export type RequestEncoding = 'json' | 'form' | 'xml';
/** How a successful response body travels on the wire. */
export type ResponseEncoding = 'json' | 'xml' | 'html';
/** Whether a response carries `encryption_data` to verify. */
export type ResponseSignature = 'required' | 'if-present' | 'none';
/** `safe` may be retried after an unknown outcome; `money-moving` never is. */
export type RetryClass = 'safe' | 'money-moving';

/** Batch facts of an operation that carries an order array. */
export interface BatchSpec {
  /** The request member that holds the orders. */
  readonly array: string;
  /** The response member that holds the per-order results. */
  readonly responseArray: string;
  /** The most orders one request may carry. */
  readonly limit: number;
  /** The per-element status field. */
  readonly statusField: string;
  /** The per-element error text, if any. */
  readonly errorField: string | null;
  /** For list-in-a-string selections (query): the joining text. */
  readonly separator: string | null;
}

/** The top-level answer fields that say whether a request was applied as a whole (`x-gw-refusal`). */
export interface RefusalSpec {
  /** `return_status`, `order_status` or `cancel_status`: `1` is success (UNKNOWNS U28, U47). */
  readonly statusField: string;
  /** Its text: `return_message`, `result_info` or `error_message`. */
  readonly messageField: string;
}

/** One row of the generated operation table. */
export interface OperationSpec {
  readonly name: string;
  readonly operationId: string;
  readonly method: 'POST';
  readonly path: string;
  readonly requestEncoding: RequestEncoding;
  /** False where the seed declares no body type and the encoding is the toolkit's policy (UNKNOWNS U31). */
  readonly requestEncodingDeclared: boolean;
  readonly requestMediaType: string;
  readonly responseEncoding: ResponseEncoding;
  readonly responseMediaType: string;
  readonly signed: boolean;
  readonly responseSignature: ResponseSignature;
  readonly ipAllowListed: boolean;
  readonly retryClass: RetryClass;
  readonly batch: BatchSpec | null;
  /** The answer's whole-request status and its text; null where the answer has none (checkout, payout). */
  readonly refusal: RefusalSpec | null;
  readonly requestSchema: string;
  readonly responseSchema: string;
  readonly xmlRoot: string | null;
  readonly selectWhenPresent: string | null;
}
