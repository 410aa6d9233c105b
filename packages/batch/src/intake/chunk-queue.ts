import { orderName } from '../order-key.ts';
import type { PendingOrder } from '../send/pending-order.ts';

/** Orders waiting for a chunk: resends first, then input, cut at most `limit` at a time. */
export class ChunkQueue {
  readonly #limit: number;
  readonly #retry: PendingOrder[] = [];
  readonly #deferred: PendingOrder[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Queues an input order. */
  push(pending: PendingOrder): void {
    this.#deferred.push(pending);
  }

  /** Queues orders known not to have been applied, to be sent again (ahead of input). */
  requeue(orders: readonly PendingOrder[]): void {
    this.#retry.push(...orders);
  }

  /** How many orders wait. */
  get size(): number {
    return this.#retry.length + this.#deferred.length;
  }

  /** The lowest input index of any queued order, if any: every input order before it has left the queue. */
  get firstIndex(): number | undefined {
    let first = this.#deferred[0]?.index;
    for (const pending of this.#retry) if (first === undefined || pending.index < first) first = pending.index;
    return first;
  }

  /** True while fewer input orders wait than fill a chunk (read more input). */
  get hungry(): boolean {
    return this.#deferred.length < this.#limit;
  }

  /**
   * The next chunk: resends first, then queued input, at most `limit`, never two elements of one order (UNKNOWNS
   * U37). Given `chunk` (orders already taken), fills it up to `limit` under the same rule.
   */
  next(chunk: PendingOrder[] = []): PendingOrder[] {
    // The orders already in the chunk, by transaction_id, and by order_no for those named by order_no alone.
    const ids = new Set<string>();
    const nos = new Set<string>();
    for (const pending of chunk) {
      const { by, value } = orderName(pending.order);
      (by === 'transaction_id' ? ids : nos).add(value);
    }
    for (const queue of [this.#retry, this.#deferred]) {
      // One pass, then one splice: orders passed over (another element of an order already in the chunk) keep their place.
      const passedOver: PendingOrder[] = [];
      let i = 0;
      for (; i < queue.length && chunk.length < this.#limit; i++) {
        const pending = queue[i]!;
        const { by, value: name } = orderName(pending.order);
        const named = by === 'transaction_id' ? ids : nos;
        if (named.has(name)) {
          passedOver.push(pending);
          continue;
        }
        named.add(name);
        chunk.push(pending);
      }
      if (i > 0) queue.splice(0, i, ...passedOver);
    }
    return chunk;
  }
}
