import { hash } from 'node:crypto';
import type { BatchOperation } from './batch-operation.ts';
import { canonicalAmount } from './intake/canonical-amount.ts';

// Capture, cancel and review act on the whole transaction: their `amount` is the order's amount (UNKNOWNS U25), not a
// sum to move, so two of them naming one transaction are one movement whatever amount they give; it is no key field.
const FIELDS: Record<BatchOperation, readonly string[]> = {
  capture: ['transaction_id', 'order_no'],
  cancel: ['transaction_id', 'order_no'],
  review: ['transaction_id', 'order_no'],
  // Two refunds of one order are legitimate when they differ: a duplicate is the same amount and reason again.
  refund: ['transaction_id', 'order_no', 'refund_amount', 'refund_reason'],
  query: ['transaction_id', 'order_no'],
};

// Key fields that are amounts (the spec's DecimalAmount): compared by decimal value, so 3, 3.0 and 3.00 are one refund.
const AMOUNTS: ReadonlySet<string> = new Set(['refund_amount']);

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
 * A key field's text for comparison: an amount by its canonical decimal ('' when absent, as every field is optional,
 * U05), null for an amount that is present but no decimal (intake refuses it for its format; it is nobody's duplicate).
 */
function keyText(order: Readonly<Record<string, unknown>>, field: string): string | null {
  if (!AMOUNTS.has(field)) return fieldText(order, field);
  const value = order[field];
  return value === undefined ? '' : canonicalAmount(value);
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

  /** The other fields' texts, or null when an amount among them is no decimal. */
  #rest(order: Readonly<Record<string, unknown>>): string | null {
    const fields = this.#fields;
    let text = keyText(order, fields[1]!);
    for (let i = 2; i < fields.length && text !== null; i++) {
      const next = keyText(order, fields[i]!);
      text = next === null ? null : `${text}\u0000${next}`;
    }
    return text === null ? null : compact(text);
  }

  /**
   * Registers the order at `index`; returns the index of an earlier identical order instead, if there was one. An
   * order whose key amount is no decimal is neither registered nor matched: it is refused for its format, never as a
   * duplicate.
   */
  remember(order: Readonly<Record<string, unknown>>, index: number): number | undefined {
    const rest = this.#rest(order);
    if (rest === null) return undefined;
    const first = compact(fieldText(order, this.#fields[0]!));
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
  return operation === 'refund' ? `${base}\u0000${amountKey(order, 'refund_amount')}\u0000${fieldText(order, 'refund_reason')}` : base;
}

/**
 * An amount in a claim key: its canonical decimal, so one refund written 3, 3.0 or 3.00 is one claim. Intake refuses a
 * non-decimal amount before any claim; were one to get here, its JSON text (quoted, no NUL) can equal no decimal.
 */
function amountKey(order: Readonly<Record<string, unknown>>, field: string): string {
  return keyText(order, field) ?? JSON.stringify(fieldText(order, field));
}
