import { operations } from '@gw/types';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { Reconciler } from '../reconciler.ts';
import { selectionOf, type BatchTransport } from '../send/batch-transport.ts';
import { messageOf, text, type Order, type PendingOrder } from '../send/pending-order.ts';

const QUERY_LIMIT = operations.query.batch.limit;

/** True when the call timed out after its request left (the gateway may still be working on it). */
export function timedOut(error: unknown): boolean {
  const { code, details } = (error ?? {}) as { code?: unknown; details?: { reason?: unknown } };
  return code === 'GW_TIMEOUT' || details?.reason === 'timeout';
}

/** What a reconciliation decided: final outcomes, and orders found not applied that go out again. */
export interface Reconciled {
  readonly outcomes: OrderOutcome[];
  readonly resend: PendingOrder[];
}

/** "1 request carried" / "2 requests carried", with the requests a crash cut off unproven, if any. */
function carriedBy(pending: PendingOrder): string {
  const sends = pending.resends + 1;
  const cut = pending.interrupted ?? 0;
  return `${sends === 1 ? 'one request' : `${sends} requests`} carried${cut > 0 ? ` (and ${cut} more a crash or kill cut off, which may have left)` : ''}`;
}

/** "2 sends", with the sends a crash cut off before they could be shown to have left, if any. */
function sendsOf(pending: PendingOrder): string {
  const sends = pending.resends + 1;
  const cut = pending.interrupted ?? 0;
  return `${sends} send${sends === 1 ? '' : 's'}${cut > 0 ? ` (and ${cut} more cut off by a crash or kill before ${cut === 1 ? 'it' : 'they'} could go out, not counted)` : ''}`;
}

/**
 * The orders the query lists, or its error. One call: the client tries a query again itself (a query is safe to
 * repeat: its `retry` option), so the batch adds no second layer of tries.
 */
async function queryListed(transport: BatchTransport, group: readonly PendingOrder[]): Promise<Order[] | { error: unknown }> {
  try {
    const answer = (await transport.query(selectionOf(group.map((p) => p.order)))) as { orders_list?: Order[] };
    return Array.isArray(answer.orders_list) ? answer.orders_list : [];
  } catch (error) {
    return { error };
  }
}

/**
 * Settles orders whose request got no trustworthy answer by querying them, never by sending blindly again: applied
 * orders succeed, orders not applied go out again (at most `maxResends` counted times), the rest end `unknown`.
 */
export class QueryReconciliation {
  readonly #transport: BatchTransport;
  readonly #operation: Exclude<BatchOperation, 'query'>;
  readonly #reconcile: Reconciler;
  readonly #maxResends: number;
  readonly #quietMs: number;

  /** `quietMs`: how long after an unanswered call ended its orders are queried (a request that reached the gateway late has landed by then). */
  constructor(options: { transport: BatchTransport; operation: BatchOperation; reconcile: Reconciler; maxResends: number; quietMs: number }) {
    this.#transport = options.transport;
    this.#operation = options.operation as Exclude<BatchOperation, 'query'>;
    this.#reconcile = options.reconcile;
    this.#maxResends = options.maxResends;
    this.#quietMs = options.quietMs;
  }

  /**
   * `sent` false: nothing proves the request left (a crash right after its intent): a resend is not counted.
   * `quiet` true: the call timed out, so the gateway may still be working on it: its orders are queried only after the
   * send margin (`quietMs`), once a request still in progress has landed. An answer that came and could not be read,
   * or a connection the gateway closed, has no such wait; nor has a chunk taken over (its holder's sends waited out).
   */
  async settle(orders: readonly PendingOrder[], sent = true, quiet = false): Promise<Reconciled> {
    if (quiet && this.#quietMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#quietMs));
    // How many requests carried the order: an operator checks first the unknown orders sent more than once.
    const noAnswer = (p: PendingOrder): string =>
      sent
        ? `no answer to the ${this.#operation}, which ${carriedBy(p)}`
        : `the batch stopped (a crash or kill) around the ${this.#operation}'s send, with nothing journaled to show it went out${p.resends > 0 ? ` (${p.resends} earlier request${p.resends === 1 ? '' : 's'} carried it)` : ''}`;
    const outcomes: OrderOutcome[] = [];
    const resend: PendingOrder[] = [];
    for (let start = 0; start < orders.length; start += QUERY_LIMIT) {
      const group = orders.slice(start, start + QUERY_LIMIT);
      const listed = await queryListed(this.#transport, group);
      if (!Array.isArray(listed)) {
        outcomes.push(
          ...group.map((p) =>
            this.#unknown(p, `${noAnswer(p)}, and the query to check it failed too (after the client's own tries): ${messageOf(listed.error)}`),
          ),
        );
        continue;
      }
      for (const pending of group) this.#read(pending, listed, sent, noAnswer, outcomes, resend);
    }
    return { outcomes, resend };
  }

  #read(
    pending: PendingOrder,
    listed: readonly Order[],
    sent: boolean,
    noAnswerTo: (p: PendingOrder) => string,
    outcomes: OrderOutcome[],
    resend: PendingOrder[],
  ): void {
    const noAnswer = noAnswerTo(pending);
    const id = text(pending.order.transaction_id);
    const no = text(pending.order.order_no);
    const queried = listed.find((q) => text(q.query_result) === '1' && (id ? text(q.transaction_id) === id : text(q.order_no) === no));
    let verdict: ReturnType<Reconciler> | Error;
    try {
      verdict = this.#reconcile({ operation: this.#operation, order: pending.order, queried: queried as never });
    } catch (error) {
      // A reconciler that throws has told nothing: the order may have been applied.
      verdict = error instanceof Error ? error : new Error(String(error));
    }
    if (verdict instanceof Error) outcomes.push(this.#unknown(pending, `${noAnswer}, and reading the query answer failed: ${verdict.message}`));
    else if (verdict === 'applied')
      outcomes.push({ index: pending.index, kind: 'succeeded', order: pending.order, reconciled: true, reason: `${noAnswer}; a query shows it took effect` });
    else if (verdict === 'not-applied' && !sent) resend.push({ ...pending, interrupted: (pending.interrupted ?? 0) + 1 });
    else if (verdict === 'not-applied' && pending.resends < this.#maxResends) resend.push({ ...pending, resends: pending.resends + 1 });
    else if (verdict === 'not-applied') outcomes.push(this.#notApplied(pending));
    else outcomes.push(this.#unknown(pending, `${noAnswer}, and a query cannot tell whether it took effect`));
  }

  /** The query has answered: the order is not applied, and its resends are spent. Sending it again is safe. */
  #notApplied(p: PendingOrder): OrderOutcome {
    const reason = `no answer to the ${this.#operation} after ${sendsOf(p)}; a query shows it has not taken effect, so it is safe to send again`;
    return { index: p.index, kind: 'failed', order: p.order, reconciled: true, reason };
  }

  #unknown(p: PendingOrder, reason: string): OrderOutcome {
    const how = `query order_no ${text(p.order.order_no) || '?'} / transaction_id ${text(p.order.transaction_id) || '?'} (/v1/retrievalTrans or the merchant portal) to see whether the ${this.#operation} took effect before sending it again`;
    return { index: p.index, kind: 'unknown', order: p.order, reason, reconcile: how };
  }
}
