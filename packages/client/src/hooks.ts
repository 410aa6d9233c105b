import type { OperationName, ValidationProblem } from '@gw/types';

/** A request is about to be sent (each try). `record` has secret fields replaced by "[redacted]". */
export interface RequestEvent {
  readonly operation: OperationName;
  readonly path: string;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly attempt: number;
  /** The request record (TypeScript field names, without encryption_data), secret fields redacted. */
  readonly record: Readonly<Record<string, unknown>>;
}

/** An HTTP answer arrived (any status). */
export interface ResponseEvent {
  readonly operation: OperationName;
  readonly path: string;
  readonly attempt: number;
  readonly status: number;
  /** From sending the request to the end of the answer, in ms. */
  readonly durationMs: number;
  /** The decoded response (the hidden fields for checkout), secret fields redacted; null when the body was not decoded. */
  readonly record: Readonly<Record<string, unknown>> | null;
}

/** A try failed (`willRetry: true`) or the call is about to throw (`willRetry: false`). */
export interface ErrorEvent {
  readonly operation: OperationName;
  readonly path: string;
  /** The try that failed; 0 when nothing was sent (validation, signing). */
  readonly attempt: number;
  /** From the start of the call, in ms. */
  readonly durationMs: number;
  /** The error: always a GwError (what a signer or verifier threw is its `cause`). Never carries card data. */
  readonly error: unknown;
  readonly willRetry: boolean;
}

/** An answer differed from the spec (the drift `gw proxy` reports), under `answers: 'report'` or `'refuse'`. */
export interface AnswerDriftEvent {
  readonly operation: OperationName;
  readonly attempt: number;
  /** Every difference: the field, the rule's keyword (`type`, `unknown`, `pattern`, …) and the spec's words; never a value. */
  readonly problems: readonly ValidationProblem[];
  readonly policy: 'report' | 'refuse';
  /**
   * `accepted`: the call returns the answer (`report`); `unknown`: refused, and the money-moving request may have been
   * applied (reconcile); `refused`: refused, an operation that moves no money.
   */
  readonly outcome: 'accepted' | 'unknown' | 'refused';
}

/** Hooks for logging and metrics. Payloads never carry card data; a hook that throws is ignored. */
export interface ClientHooks {
  readonly onRequest?: (event: RequestEvent) => void;
  readonly onResponse?: (event: ResponseEvent) => void;
  readonly onError?: (event: ErrorEvent) => void;
  /** An answer differed from the spec (see the `answers` option); without it, `report` warns once per place instead. */
  readonly onAnswerDrift?: (event: AnswerDriftEvent) => void;
}

/** Calls a hook; what it throws is swallowed, since logging must never change the outcome of a payment call. */
export function emit<E>(hook: ((event: E) => void) | undefined, event: () => E): void {
  if (!hook) return;
  try {
    hook(event());
  } catch {
    // A broken logger is not the caller's payment problem.
  }
}
