import type { CallOptions, QueryInput } from '@gw/client';
import type { BatchClient } from '../batch-operation.ts';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import { text, type Order } from './pending-order.ts';

/** The query selection of some orders: by transaction_id when they have one, by order_no otherwise. */
export function selectionOf(orders: readonly Order[]): QueryInput {
  const ids: string[] = [];
  const nos: string[] = [];
  for (const o of orders) {
    if (text(o.transaction_id)) ids.push(text(o.transaction_id));
    else nos.push(text(o.order_no));
  }
  return { ...(nos.length ? { order_no: nos } : {}), ...(ids.length ? { transaction_id: ids } : {}) };
}

/** Sends one chunk of orders as one request of `operation`, the orders under the array the generated table names. */
export function callOperation(client: BatchClient, operation: BatchOperation, orders: Order[], call?: CallOptions): Promise<unknown> {
  if (operation === 'query') return client.query(selectionOf(orders), call);
  const method = client[operation] as (request: Record<string, unknown>, call?: CallOptions) => Promise<unknown>;
  return method.call(client, { [batchSpecOf(operation).array]: orders }, call);
}
