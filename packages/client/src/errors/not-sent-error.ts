import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';

/** Where a request failed before it could be sent. */
export type NotSentStage = 'prepare' | 'sign' | 'encode' | 'before-send';

/** Context of a NotSentError. */
export interface NotSentErrorDetails {
  readonly operation: OperationName;
  /** What was being done when it failed: `sign` for a signer that threw or rejected. */
  readonly stage: NotSentStage;
  /** Always false: the request never reached a socket. */
  readonly sent: false;
  /** Always `not-sent`: nothing happened at the gateway, so the request may be sent again once the cause is fixed. */
  readonly outcome: 'not-sent';
  /** The name of what was thrown (`Error`, `TypeError`...); its message is in `message`, card data redacted. */
  readonly causeName: string;
}

const STAGES: Readonly<Record<NotSentStage, string>> = {
  prepare: 'preparing the request failed',
  sign: 'the signer failed',
  encode: 'encoding the request body failed',
  'before-send': "the caller's check before sending (CallOptions.beforeSend) refused it",
};

/**
 * The request failed before it left the process (a signer or HSM that threw, an encoder that failed): nothing was
 * sent, so nothing happened at the gateway. The thrown value is the `cause`.
 */
export class NotSentError extends GwError<NotSentErrorDetails> {
  override readonly name = 'NotSentError';

  constructor(options: { operation: OperationName; stage: NotSentStage; causeText: string; causeName: string }, errorOptions?: { cause?: unknown }) {
    super(
      GW_ERROR_CODES.notSent,
      `${options.operation}: ${STAGES[options.stage]} (${options.causeName}: ${options.causeText}); nothing was sent, so it is safe to send again once that is fixed`,
      { operation: options.operation, stage: options.stage, sent: false, outcome: 'not-sent', causeName: options.causeName },
      errorOptions,
    );
  }
}
