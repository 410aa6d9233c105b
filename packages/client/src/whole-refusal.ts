import { operations, textOf, type OperationName } from '@gw/types';
import { splitCodeMessage } from './split-code-message.ts';

/** The code and text of an answer that refuses a request as a whole. */
export interface WholeRefusal {
  readonly code: string;
  readonly message: string;
}

function refusal(status: string, failed: string, message: string): WholeRefusal | null {
  if (status !== failed) return null;
  const split = splitCodeMessage(message);
  return split.code && !split.success ? { code: split.code, message: split.message } : null;
}

/**
 * The refusal an answer states when it refuses the whole request and names no element or transaction that was
 * applied: a batch answer with `return_status` "0", a `code:message` text and no element; a card or alternative
 * `respon` with `order_status` "0" and no `transaction_id`; a cancelSubscription with `cancel_status` "0". Null for
 * any other answer, which may have moved money (payouts always: a FAILED payout answer is not read as a refusal).
 */
export function wholeRequestRefusal(operation: OperationName, record: Record<string, unknown>): WholeRefusal | null {
  const op = operations[operation];
  if (op.batch && !op.batch.separator) {
    const elements = record[op.batch.array];
    if (Array.isArray(elements) ? elements.length > 0 : elements !== undefined && elements !== '') return null;
    return refusal(textOf(record.return_status), '0', textOf(record.return_message));
  }
  switch (op.responseSchema) {
    case 'CardRespon':
    case 'AlternativeRespon':
      return textOf(record.transaction_id) === '' ? refusal(textOf(record.order_status), '0', textOf(record.result_info)) : null;
    case 'CancelSubscriptionResponse':
      return refusal(textOf(record.cancel_status), '0', textOf(record.error_message));
    default:
      return null;
  }
}
