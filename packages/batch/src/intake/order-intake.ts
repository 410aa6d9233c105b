import { RecordValidator, type BatchSpec, type ValidationProblem } from '@gw/types';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import { DuplicateIndex, orderName } from '../order-key.ts';
import { text, type Order, type PendingOrder } from '../send/pending-order.ts';

/** Why an input order is refused before sending: in words, and every problem found. */
export interface Refusal {
  readonly reason: string;
  readonly problems: readonly ValidationProblem[];
}

/** Takes input orders in: refuses those carrying card data, duplicates of earlier input orders and invalid ones. */
export class OrderIntake {
  readonly #operation: BatchOperation;
  readonly #spec: BatchSpec;
  readonly #validator = new RecordValidator();
  readonly #seen: DuplicateIndex;

  constructor(operation: BatchOperation) {
    this.#operation = operation;
    this.#spec = batchSpecOf(operation);
    this.#seen = new DuplicateIndex(operation);
  }

  /** Registers an input order for duplicate detection; returns the index of the earlier identical one, if any. */
  remember(pending: PendingOrder): number | undefined {
    return this.#seen.remember(pending.order, pending.index);
  }

  /**
   * Why the order is refused before any check of its members (card data, a duplicate of an earlier input order), or
   * null when it goes on to `chunkRefusals` (it is then remembered for duplicate detection).
   */
  admission(pending: PendingOrder): Refusal | null {
    if (pending.cardFields) {
      const problems = pending.cardFields.map((field) => ({
        pointer: `/${field.split(' ')[0]!.replaceAll('.', '/')}`,
        field,
        keyword: 'cardData',
        message: `is card data, which a ${this.#operation} element never carries; it was not sent or journaled`,
      }));
      return { reason: `carries card data (${pending.cardFields.join(', ')}): refused, and its card fields were dropped unread`, problems };
    }
    const earlier = this.remember(pending);
    if (earlier !== undefined) {
      const { by, value } = orderName(pending.order);
      const same =
        this.#operation === 'refund'
          ? ` (the same ${by} ${JSON.stringify(value)}, refund_amount and refund_reason)`
          : ` (the same ${by} ${JSON.stringify(value)})`;
      return { reason: `duplicate of input order #${earlier}${same}: not sent twice`, problems: [] };
    }
    return null;
  }

  /** Why the order is refused, or null when it may be sent (it is then remembered for duplicate detection). */
  refusal(pending: PendingOrder): Refusal | null {
    return this.admission(pending) ?? refusalOf(this.#problems(pending.order));
  }

  /**
   * The refusal of each order of a chunk (by position; null: valid), its members checked against the spec as the
   * request that carries them, in one walk instead of one per order. Each order gets exactly the problems a check of
   * it alone finds; if a problem cannot be told to belong to one element, every order is checked alone instead.
   */
  chunkRefusals(orders: readonly PendingOrder[]): (Refusal | null)[] {
    const array = this.#spec.array;
    // A query is checked per selection; an order with nested members alone (a member object two orders share is
    // walked once in one request).
    if (this.#operation === 'query' || !orders.every((p) => isFlat(p.order))) return orders.map((p) => refusalOf(this.#problems(p.order)));
    const found = this.#validator.requestProblems(this.#operation, { [array]: orders.map((p) => p.order) });
    if (found.length === 0) return orders.map(() => null);
    const byPosition = new Map<number, ValidationProblem[]>();
    for (const problem of found) {
      const at = elementOf(problem, array);
      if (at === null || at.position >= orders.length) return orders.map((p) => refusalOf(this.#problems(p.order)));
      let list = byPosition.get(at.position);
      if (!list) byPosition.set(at.position, (list = []));
      list.push(at.problem);
    }
    return orders.map((_, position) => refusalOf(byPosition.get(position) ?? []));
  }

  #problems(order: Order): ValidationProblem[] {
    if (this.#operation === 'query') {
      const problems = this.#validator.requestProblems('query', { order_no: order.order_no, transaction_id: order.transaction_id });
      if (!text(order.order_no) && !text(order.transaction_id)) {
        problems.push({ pointer: '', field: '', keyword: 'required', message: 'names neither order_no nor transaction_id' });
      }
      return problems;
    }
    const array = this.#spec.array;
    return this.#validator.requestProblems(this.#operation, { [array]: [order] }).map((p) => elementOf(p, array)?.problem ?? p);
  }
}

/** True when no member of the order is an object or array. */
function isFlat(order: Order): boolean {
  for (const key in order) {
    const value = order[key];
    if (value !== null && typeof value === 'object') return false;
  }
  return true;
}

/** A refusal naming every problem, or null when there is none. */
function refusalOf(problems: ValidationProblem[]): Refusal | null {
  if (problems.length === 0) return null;
  return { reason: `${problems.length} problem(s): ${problems.map((p) => `${p.field || '(order)'} ${p.message}`).join('; ')}`, problems };
}

/**
 * Which element of the order array a problem of the whole request is about, and the problem as that element's own
 * (pointer and field relative to it); null when it is not about one element.
 */
function elementOf(problem: ValidationProblem, array: string): { position: number; problem: ValidationProblem } | null {
  const match = /^\/([^/]+)\/(\d+)(?=\/|$)/.exec(problem.pointer);
  if (!match || match[1] !== array) return null;
  const position = Number(match[2]);
  const prefix = `${array}[${position}]`;
  const { field } = problem;
  return {
    position,
    problem: {
      ...problem,
      pointer: problem.pointer.slice(match[0].length),
      field: field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : field === prefix ? '' : field,
    },
  };
}
