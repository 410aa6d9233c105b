import { operations, textOf, type OperationName } from '@gw/types';

/** A member's text; a JSON answer's number (a status of 1) counts as its digits. */
function text(value: unknown): string {
  return typeof value === 'number' ? String(value) : textOf(value);
}

/**
 * What the gateway refused in an answer it returned rather than raised (UNKNOWNS U28, U47: `1` is success): the whole
 * request (the operation's `refusal.statusField` in the generated table: `return_status`, `order_status`,
 * cancelSubscription's `cancel_status`) or a batch element's status. Empty when nothing was refused.
 */
export function refusals(operation: OperationName, result: unknown): string[] {
  if (result === null || typeof result !== 'object') return [];
  const record = result as Record<string, unknown>;
  const found: string[] = [];
  const { refusal } = operations[operation];
  if (refusal && refusal.statusField in record && text(record[refusal.statusField]) !== '1') {
    const info = text(record[refusal.messageField]);
    found.push(`${refusal.statusField} ${text(record[refusal.statusField]) || '(empty)'}${info ? `: ${info}` : ''}`);
  }
  // A queried order that is not found (query_result 0) is an answer, not a refusal.
  const batch = operation === 'query' ? null : operations[operation].batch;
  const elements = batch ? record[batch.responseArray] : undefined;
  if (batch && Array.isArray(elements)) {
    elements.forEach((element: unknown, i) => {
      const fields = (element ?? {}) as Record<string, unknown>;
      const status = text(fields[batch.statusField]);
      if (status === '1') return;
      const reason = text(fields[batch.errorField ?? 'error_message']) || text(fields.error_message);
      found.push(
        `${batch.responseArray}[${i}] ${text(fields.order_no) || text(fields.transaction_id)} ${batch.statusField} ${status || '(empty)'}${reason ? `: ${reason}` : ''}`,
      );
    });
  }
  return found;
}
