import { InputMismatchError } from '../errors.ts';
import type { Order, PendingOrder } from '../send/pending-order.ts';
import { canonicalOrderText, type InputDifference, type RecordedInput } from './input-digest.ts';

/** The members whose values differ between two orders, by name (never a value: an order may hold anything). */
function fieldsThatDiffer(a: Readonly<Order>, b: Readonly<Order>): string[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name]));
}

/** The error for input order `pending`, which is not `stored`, the order the batch took in at its place. */
export function orderMismatch(store: string, pending: PendingOrder, stored: Readonly<Order>): InputMismatchError {
  const fields = fieldsThatDiffer(stored, pending.order);
  return new InputMismatchError(
    { store, index: pending.index, fields, count: null, expected: null },
    `input order #${pending.index} is not the one the batch took in at that place (${fields.length > 0 ? `its ${fields.join(', ')} differ${fields.length === 1 ? 's' : ''}` : 'it differs'})`,
  );
}

/** True when `pending` is `stored` as the input's identity sees it. */
export function sameOrder(pending: PendingOrder, stored: Readonly<Order>): boolean {
  return canonicalOrderText({ ...pending, order: stored as Order }) === canonicalOrderText(pending);
}

/**
 * The typed error for where a resume's input differs from what `recorded` says the batch read: the first input
 * order that differs from the one the store keeps, with the members that differ; or its length.
 */
export async function inputMismatch(store: string, difference: InputDifference, recorded: RecordedInput): Promise<InputMismatchError> {
  switch (difference.kind) {
    case 'shorter':
      return new InputMismatchError(
        { store, index: difference.count, fields: [], count: difference.count, expected: difference.expected },
        `the input ends after ${difference.count} orders, but the batch read ${difference.expected}: input order #${difference.count} is missing`,
      );
    case 'longer':
      return new InputMismatchError(
        { store, index: difference.expected, fields: [], count: null, expected: difference.expected },
        `the input has more than the ${difference.expected} orders the batch took in: input order #${difference.expected} was never part of it`,
      );
    case 'declared':
      return new InputMismatchError(
        { store, index: null, fields: [], count: difference.count, expected: difference.expected },
        `the input has ${difference.count} orders, but the batch was started with ${difference.expected}`,
      );
    case 'range': {
      const { range, read } = difference;
      const kept = await recorded.ordersAt(range.from, range.upto);
      for (const pending of read) {
        const stored = kept.get(pending.index);
        if (stored !== undefined && !sameOrder(pending, stored)) return orderMismatch(store, pending, stored);
      }
      // Every order the store keeps there is the same: one it had read but not yet taken in when it stopped differs.
      return new InputMismatchError(
        { store, index: range.from, fields: [], count: null, expected: null },
        `input orders #${range.from} to #${range.upto - 1} are not those the batch read there (one it had read and not yet taken in when it stopped differs)`,
      );
    }
  }
}
