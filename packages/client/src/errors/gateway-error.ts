import { GW_ERROR_CODES, GwError, type OperationName } from '@gw/types';
import { redactRecord, redactText } from '../redact.ts';
import { splitCodeMessage } from '../split-code-message.ts';

/** Context of a GatewayError: the overall result, split, and the whole decoded response. */
export interface GatewayErrorDetails<Response extends object = Record<string, unknown>> {
  readonly operation: OperationName;
  /** The response's `return_status` (null when it has none). */
  readonly return_status: string | null;
  /** The response's `return_message` (null when it has none). */
  readonly return_message: string | null;
  /** `return_message` before its first `:` (UNKNOWNS U48), or null. */
  readonly returnCode: string | null;
  /** `return_message` after its first `:`, or all of it. */
  readonly returnText: string;
  /** The decoded response, secret fields redacted: every element result it carries is here. */
  readonly response: Response;
}

/**
 * A batch or query response whose `return_status` is not "1" (UNKNOWNS U47): the gateway refused the request as a
 * whole. The decoded response rides along, so no element result is lost.
 */
export class GatewayError<Response extends object = Record<string, unknown>> extends GwError<GatewayErrorDetails<Response>> {
  override readonly name = 'GatewayError';

  constructor(options: { operation: OperationName; response: Response }) {
    const record = options.response as Record<string, unknown>;
    const status = typeof record.return_status === 'string' ? record.return_status : null;
    const message = typeof record.return_message === 'string' ? record.return_message : null;
    const split = splitCodeMessage(message);
    const said = status === null ? 'no return_status' : `return_status "${status}"`;
    super(
      GW_ERROR_CODES.gateway,
      `${options.operation}: the gateway answered ${said}${message === null ? '' : ` (${redactText(message)})`}, which refuses the request as a whole; ` +
        'element results, if any, are in error.response',
      {
        operation: options.operation,
        return_status: status,
        return_message: message,
        returnCode: split.code,
        returnText: split.message,
        response: redactRecord(options.response),
      },
    );
  }

  /** The decoded response, secret fields redacted. */
  get response(): Response {
    return this.details.response;
  }
}
