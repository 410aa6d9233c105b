/** The stable codes of the control API's errors (README "Control API"). */
export const CONTROL_ERROR_CODES = {
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  invalidRequest: 'invalid_request',
  notPending: 'not_pending',
  crossOrigin: 'cross_origin',
  hostNotAllowed: 'host_not_allowed',
  unauthorized: 'unauthorized',
  stateNotKept: 'state_not_kept',
} as const;

/** A stable code of a control API error. */
export type ControlErrorCode = (typeof CONTROL_ERROR_CODES)[keyof typeof CONTROL_ERROR_CODES];

/** A control API request that cannot be done: answered as `{ error: { code, message, details } }` with a 4xx status. */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  readonly status: number;
  readonly code: ControlErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(status: number, code: ControlErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = Object.freeze({ ...details });
  }

  /** The JSON answer body. */
  toJSON(): { error: { code: ControlErrorCode; message: string; details: Readonly<Record<string, unknown>> } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** A 503 for a change the state file could not keep (a full disk): undone, nothing applied. */
export function stateNotKept(failure: Error): ControlError {
  return new ControlError(503, CONTROL_ERROR_CODES.stateNotKept, `${failure.message}; send it again later`, {});
}

/** A 404 for something the state does not hold. */
export function notFound(what: string, id: string): ControlError {
  return new ControlError(404, CONTROL_ERROR_CODES.notFound, `no ${what} ${id} in this sandbox`, { [what.replace(/ /g, '_')]: id });
}

/** A 400 listing every problem of a request at once. */
export function invalid(message: string, problems: readonly { path: string; message: string }[]): ControlError {
  return new ControlError(400, CONTROL_ERROR_CODES.invalidRequest, `${message}: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, { problems });
}
