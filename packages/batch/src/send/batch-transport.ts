import type { GuardedCall, QueryInput } from '@gw/client';
import type { SendGuard } from '../lease/send-guard.ts';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import type { BatchClient } from '../operation/batch-records.ts';
import { orderName } from '../order-key.ts';
import type { Order } from './pending-order.ts';

/**
 * The one way the batch runner reaches the gateway. `send` carries a chunk as one request under its guard (the time
 * limit, the lease check at the write) and returns only the answer that guard vouched for; `query` settles orders
 * whose request got no trustworthy answer (safe to repeat: the client retries it itself).
 */
export interface BatchTransport {
  send(operation: BatchOperation, orders: readonly Order[], guard: SendGuard): Promise<unknown>;
  query(selection: QueryInput): Promise<unknown>;
}

/** The query selection of some orders: each by its name (`orderName`), its transaction_id or else its order_no. */
export function selectionOf(orders: readonly Order[]): QueryInput {
  const ids: string[] = [];
  const nos: string[] = [];
  for (const o of orders) {
    const { by, value } = orderName(o);
    (by === 'transaction_id' ? ids : nos).push(value);
  }
  return { ...(nos.length ? { order_no: nos } : {}), ...(ids.length ? { transaction_id: ids } : {}) };
}

/** A batch operation's method, as the batch calls it: with its guard, the answer vouched for. */
type GuardedMethod = (request: unknown, call: GuardedCall) => Promise<unknown>;

/**
 * The client as the batch's transport: the one place a `GwClient` (or anything typed as one) is adapted. A chunk's
 * orders go under the array the generated table names (a query's as a selection), with the guard as the call's
 * options; the answer is opened by the same guard, so one that comes back without it stops the batch.
 */
export function transportOf(client: BatchClient): BatchTransport {
  return {
    async send(operation, orders, guard) {
      const request = operation === 'query' ? selectionOf(orders) : { [batchSpecOf(operation).array]: orders };
      const method = client[operation] as GuardedMethod;
      return guard.opened(await method.call(client, request, guard));
    },
    query: (selection) => client.query(selection),
  };
}
