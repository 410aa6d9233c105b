import { createHash } from 'node:crypto';
import type { BatchOperation } from './batch-operation.ts';

/** The order an input names, for keeping two elements of one order out of the same request (UNKNOWNS U37). */
export function orderIdentity(order: Readonly<Record<string, unknown>>): string {
  const id = typeof order.transaction_id === 'string' ? order.transaction_id : '';
  const no = typeof order.order_no === 'string' ? order.order_no : '';
  return id ? `t:${id}` : `o:${no}`;
}

const FIELDS: Record<BatchOperation, readonly string[]> = {
  capture: ['transaction_id', 'order_no'],
  cancel: ['transaction_id', 'order_no'],
  review: ['transaction_id', 'order_no'],
  // Two refunds of one order are legitimate when they differ: a duplicate is the same amount and reason again.
  refund: ['transaction_id', 'order_no', 'refund_amount', 'refund_reason'],
  query: ['transaction_id', 'order_no'],
};

/** A compact fingerprint of what makes two inputs the same request (16 bytes, base64), so 100,000 keys stay small. */
export function duplicateKey(operation: BatchOperation, order: Readonly<Record<string, unknown>>): string {
  const text = FIELDS[operation].map((f) => String(order[f] ?? '')).join('\u0000');
  return createHash('sha256').update(text).digest('base64').slice(0, 22);
}
