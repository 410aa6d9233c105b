/** Every stable error code of the toolkit, one map so the union type is derived from it. */
export const GW_ERROR_CODES = {
  validation: 'GW_VALIDATION',
  decode: 'GW_DECODE',
  signature: 'GW_SIGNATURE',
  gateway: 'GW_GATEWAY',
  http: 'GW_HTTP',
  timeout: 'GW_TIMEOUT',
  outcomeUnknown: 'GW_OUTCOME_UNKNOWN',
  items: 'GW_ITEMS',
  config: 'GW_CONFIG',
  interrupted: 'GW_INTERRUPTED',
  notSent: 'GW_NOT_SENT',
  notRecorded: 'GW_NOT_RECORDED',
  throttled: 'GW_THROTTLED',
  answerDrift: 'GW_ANSWER_DRIFT',
} as const;

/** A stable error code such as `GW_VALIDATION`. */
export type GwErrorCode = (typeof GW_ERROR_CODES)[keyof typeof GW_ERROR_CODES];

/** Base class of every error the toolkit throws: a stable `code`, an actionable message, structured details. */
export class GwError<Details extends object = Record<string, unknown>> extends Error {
  override readonly name: string = 'GwError';
  readonly code: GwErrorCode;
  readonly details: Readonly<Details>;

  constructor(code: GwErrorCode, message: string, details: Details, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = Object.freeze({ ...details });
  }

  /** The serialised form: name, code, message and details (never a request body). */
  toJSON(): { name: string; code: GwErrorCode; message: string; details: Readonly<Details> } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/** True for any error the toolkit threw. */
export function isGwError(value: unknown): value is GwError {
  return value instanceof GwError;
}
