import { hash } from 'node:crypto';
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

const SHORT = 40;

/**
 * What makes two inputs the same request, compact so 100,000 keys stay small: the fields themselves when short (the
 * usual ids), else a SHA-256 fingerprint (16 bytes, base64). The first character tells the two kinds apart.
 */
export function duplicateKey(operation: BatchOperation, order: Readonly<Record<string, unknown>>): string {
  const fields = FIELDS[operation];
  let text = String(order[fields[0]!] ?? '');
  for (let i = 1; i < fields.length; i++) text += `\u0000${String(order[fields[i]!] ?? '')}`;
  return text.length <= SHORT ? `=${text}` : `#${(hash('sha256', text, 'base64') as string).slice(0, 22)}`;
}
