import { REFUSALS, type RefusalCode, type RefusalKind } from './refusal-codes.ts';

/** A request refused before any handler ran: sent back as a structured JSON error (UNKNOWNS U49). */
export class SandboxHttpError extends Error {
  override readonly name = 'SandboxHttpError';
  readonly status: number;
  readonly errors: readonly { path: string; message: string }[];
  /** True when the connection is closed once the answer is written (a body that stopped arriving). */
  readonly closeAfter: boolean;

  constructor(status: number, message: string, errors: readonly { path: string; message: string }[] = [], closeAfter = false) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.closeAfter = closeAfter;
  }
}

/** A request refused as a whole by the gateway's rules (unknown merchant, bad signature, over the limit): HTTP 200. */
export class SandboxRefusal extends Error {
  override readonly name = 'SandboxRefusal';
  readonly code: RefusalCode;

  constructor(code: RefusalCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** A SandboxRefusal of a request refused as a whole (HTTP 200 with the operation's refusal record). */
export function refusal<K extends RefusalKind>(kind: K, ...details: Parameters<(typeof REFUSALS)[K]['message']>): SandboxRefusal {
  const { code, message } = REFUSALS[kind];
  return new SandboxRefusal(code, (message as (...args: typeof details) => string)(...details));
}
