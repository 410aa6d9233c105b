import { operations, textOf, type OperationName } from '@gw/types';
import { splitCodeMessage } from './split-code-message.ts';

/** The code and text of an answer that refuses a request as a whole. */
export interface WholeRefusal {
  readonly code: string;
  readonly message: string;
}

/** True when a batch answer's array names at least one element (something may have been applied). */
function namesAnElement(elements: unknown): boolean {
  return Array.isArray(elements) ? elements.length > 0 : elements !== undefined && elements !== '';
}

/**
 * The refusal an answer states when it refuses the whole request and names no element or transaction that was
 * applied: its status field (the operation's `refusal.statusField` in the generated table: `return_status`,
 * `order_status`, `cancel_status`) "0" with a `code:message` text in its message field, and no element (a batch) or
 * `transaction_id` (the others). Null for any other answer, which may have moved money, and for operations whose
 * answer states no whole refusal (payouts: a FAILED payout answer is not read as a refusal) or only selects (query).
 */
export function wholeRequestRefusal(operation: OperationName, record: Record<string, unknown>): WholeRefusal | null {
  const { refusal, batch } = operations[operation];
  if (refusal === null || batch?.separator) return null;
  if (batch ? namesAnElement(record[batch.responseArray]) : textOf(record.transaction_id) !== '') return null;
  if (textOf(record[refusal.statusField]) !== '0') return null;
  const split = splitCodeMessage(textOf(record[refusal.messageField]));
  return split.code && !split.success ? { code: split.code, message: split.message } : null;
}
