import type { BatchSpec } from '@gw/types';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { text, type Order, type PendingOrder } from './pending-order.ts';

/** An order of a chunk with its outcome, or null while it is in doubt (to be settled by query). */
export interface Settled {
  readonly pending: PendingOrder;
  readonly outcome: OrderOutcome | null;
}

/** Looks result elements up by transaction_id and order_no, the maps built only when first needed. */
function lookUpIn(elements: readonly Order[], operation: BatchOperation): (id: string, no: string) => Order | undefined {
  let byId: Map<string, Order> | null = null;
  let byNo: Map<string, Order> | null = null;
  return (id, no) => {
    if (byId === null || byNo === null) {
      byId = new Map();
      byNo = new Map();
      for (const element of elements) {
        if (element === null || typeof element !== 'object') continue;
        if (text(element.transaction_id)) byId.set(text(element.transaction_id), element);
        if (text(element.order_no)) byNo.set(text(element.order_no), element);
      }
    }
    return (id ? byId.get(id) : undefined) ?? (id && operation !== 'query' ? undefined : byNo.get(no));
  };
}

/**
 * Matches result elements to a chunk's orders by the echoed transaction_id / order_no, never by position (UNKNOWNS
 * U37). Most answers list their elements in the request's order: the element at the same position is taken when it
 * echoes the order's own id. An order with no element is in doubt (a query: failed, "not in the query answer").
 */
export function matchAnswers(operation: BatchOperation, spec: BatchSpec, chunk: readonly PendingOrder[], response: Record<string, unknown>): Settled[] {
  const elements = Array.isArray(response[spec.responseArray]) ? (response[spec.responseArray] as Order[]) : [];
  const lookUp = lookUpIn(elements, operation);
  return chunk.map((pending, position) => {
    const id = text(pending.order.transaction_id);
    const no = text(pending.order.order_no);
    const same = elements[position];
    const echoed = typeof same === 'object' && same !== null && (id ? text(same.transaction_id) === id : no !== '' && text(same.order_no) === no);
    const element = echoed ? same : lookUp(id, no);
    if (!element) {
      if (operation === 'query') return { pending, outcome: { index: pending.index, kind: 'failed', order: pending.order, reason: 'not in the query answer' } };
      return { pending, outcome: null };
    }
    const status = text(element[spec.statusField]);
    if (status === '1') return { pending, outcome: { index: pending.index, kind: 'succeeded', order: pending.order, result: element } };
    const reason = text(element[spec.errorField ?? 'error_message']) || text(element.error_message) || `${spec.statusField} ${status || '(empty)'}`;
    return { pending, outcome: { index: pending.index, kind: 'failed', order: pending.order, result: element, reason } };
  });
}
