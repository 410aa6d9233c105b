import { hash } from 'node:crypto';
import type { BatchOperation } from './batch-operation.ts';

const FIELDS: Record<BatchOperation, readonly string[]> = {
  capture: ['transaction_id', 'order_no'],
  cancel: ['transaction_id', 'order_no'],
  review: ['transaction_id', 'order_no'],
  // Two refunds of one order are legitimate when they differ: a duplicate is the same amount and reason again.
  refund: ['transaction_id', 'order_no', 'refund_amount', 'refund_reason'],
  query: ['transaction_id', 'order_no'],
};

const SHORT = 40;

/** A short field value as it is, a long one as a SHA-256 fingerprint (16 bytes, base64) so 100,000 keys stay small. */
function compact(text: string): string {
  return text.length <= SHORT ? text : `#${(hash('sha256', text, 'base64') as string).slice(0, 22)}`;
}

function fieldText(order: Readonly<Record<string, unknown>>, field: string): string {
  const value = order[field];
  return typeof value === 'string' ? value : String(value ?? '');
}

/**
 * The input orders seen so far, by what makes two of them the same request (`FIELDS`): the first field's value (the
 * transaction_id, usually unique) keys a map whose entry holds the other fields' values, so the common case hashes a
 * string the order already has instead of a new joined one. Long values are kept as fingerprints.
 */
export class DuplicateIndex {
  readonly #fields: readonly string[];
  // first field -> index of the first order with it, or (once two orders share it) other fields -> index.
  readonly #seen = new Map<string, number | Map<string, number>>();
  // The other fields of each order kept in #seen by index alone, to compare a later order with the same first field.
  readonly #rests: string[] = [];

  constructor(operation: BatchOperation) {
    this.#fields = FIELDS[operation];
  }

  #rest(order: Readonly<Record<string, unknown>>): string {
    const fields = this.#fields;
    if (fields.length === 2) return compact(fieldText(order, fields[1]!));
    let text = fieldText(order, fields[1]!);
    for (let i = 2; i < fields.length; i++) text += `\u0000${fieldText(order, fields[i]!)}`;
    return compact(text);
  }

  /** Registers the order at `index`; returns the index of an earlier identical order instead, if there was one. */
  remember(order: Readonly<Record<string, unknown>>, index: number): number | undefined {
    const first = compact(fieldText(order, this.#fields[0]!));
    const rest = this.#rest(order);
    const entry = this.#seen.get(first);
    if (entry === undefined) {
      this.#seen.set(first, index);
      this.#rests[index] = rest;
      return undefined;
    }
    if (typeof entry === 'number') {
      const earlierRest = this.#rests[entry]!;
      if (earlierRest === rest) return entry;
      this.#seen.set(first, new Map([[earlierRest, entry], [rest, index]]));
      return undefined;
    }
    const earlier = entry.get(rest);
    if (earlier === undefined) entry.set(rest, index);
    return earlier;
  }
}

/**
 * What makes an order the same money movement across batches (the ledger's claim): its transaction_id (or order_no
 * when it has none), and for a refund its amount and reason too, since two partial refunds of one order are two
 * movements. Null for an operation that moves no money (query).
 */
export function claimKeyOf(operation: BatchOperation, order: Readonly<Record<string, unknown>>): string | null {
  if (operation === 'query') return null;
  const id = fieldText(order, 'transaction_id');
  const base = id ? id : `order_no:${fieldText(order, 'order_no')}`;
  return operation === 'refund' ? `${base}\u0000${fieldText(order, 'refund_amount')}\u0000${fieldText(order, 'refund_reason')}` : base;
}
