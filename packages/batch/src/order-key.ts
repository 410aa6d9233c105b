import { hash } from 'node:crypto';
import type { BatchOperation } from './operation/batch-operations.ts';
import { canonicalAmount } from './intake/canonical-amount.ts';
import { text, type Order } from './send/pending-order.ts';

/**
 * Which order an element names: its `transaction_id` (the gateway's identifier), or its `order_no` when it has none.
 * Two elements with one name are one order: they never travel in one request (UNKNOWNS U37), answers are matched to
 * them by it, and a query selects them by it.
 */
export function orderName(order: Readonly<Order>): { readonly by: 'transaction_id' | 'order_no'; readonly value: string } {
  const id = text(order.transaction_id);
  return id ? { by: 'transaction_id', value: id } : { by: 'order_no', value: text(order.order_no) };
}

/**
 * What makes two input orders the same request, written once for both places that ask: duplicates inside a batch
 * (`DuplicateIndex`, journal and ledger alike) and, for an operation that moves money, claims across the batches of
 * a ledger (`gw_order_claim`). It is the order's name (`orderName`: a capture, cancel or review acts on the whole
 * transaction, whatever `order_no` or `amount` the row gives, UNKNOWNS U25), and for a refund also its amount, by
 * decimal value (`3`, `3.0` and `3.00` are one refund), and its reason, since two different partial refunds of one
 * order are two movements. Null for a refund whose amount is present but no decimal: intake refuses it for its format,
 * and it is nobody's duplicate. The text keeps the form ledgers have stored since 1.0 (a name by order_no alone is
 * prefixed `order_no:`; a refund's parts are joined by NUL, stored as their JSON array).
 */
export function orderIdentity(operation: BatchOperation, order: Readonly<Order>): string | null {
  const name = orderName(order);
  const base = name.by === 'transaction_id' ? name.value : `order_no:${name.value}`;
  if (operation !== 'refund') return base;
  const amount = order.refund_amount === undefined ? '' : canonicalAmount(order.refund_amount);
  if (amount === null) return null;
  return `${base}\u0000${amount}\u0000${text(order.refund_reason)}`;
}

/**
 * The key of an order's claim across the batches of a ledger: its identity, for an operation that moves money; null
 * for a query (it moves nothing) and for an order intake refuses for its format.
 */
export function claimKeyOf(operation: BatchOperation, order: Readonly<Order>): string | null {
  return operation === 'query' ? null : orderIdentity(operation, order);
}

const SHORT = 40;

/** A short identity as it is, a long one as a SHA-256 fingerprint (16 bytes, base64) so 100,000 keys stay small. */
function compact(identity: string): string {
  return identity.length <= SHORT ? identity : `#${(hash('sha256', identity, 'base64') as string).slice(0, 22)}`;
}

/** The input orders seen so far, by identity (`orderIdentity`): the index of the first order of each. */
export class DuplicateIndex {
  readonly #operation: BatchOperation;
  readonly #seen = new Map<string, number>();

  constructor(operation: BatchOperation) {
    this.#operation = operation;
  }

  /**
   * Registers the order at `index`; returns the index of an earlier order with the same identity instead, if there
   * was one. An order with no identity (a refund amount that is no decimal) is neither registered nor matched.
   */
  remember(order: Readonly<Order>, index: number): number | undefined {
    const identity = orderIdentity(this.#operation, order);
    if (identity === null) return undefined;
    const key = compact(identity);
    const earlier = this.#seen.get(key);
    if (earlier === undefined) this.#seen.set(key, index);
    return earlier;
  }
}
