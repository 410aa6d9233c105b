import { RecordValidator, type BatchSpec, type ValidationProblem } from '@gw/types';
import { batchSpecOf, type BatchOperation } from '../operation/batch-operations.ts';
import { DuplicateIndex } from '../order-key.ts';
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

  /** Why the order is refused, or null when it may be sent (it is then remembered for duplicate detection). */
  refusal(pending: PendingOrder): Refusal | null {
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
    if (earlier !== undefined) return { reason: `duplicate of input order #${earlier}: not sent twice`, problems: [] };
    const problems = this.#problems(pending.order);
    if (problems.length > 0) {
      return { reason: `${problems.length} problem(s): ${problems.map((p) => `${p.field || '(order)'} ${p.message}`).join('; ')}`, problems };
    }
    return null;
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
    const prefix = `${array}[0]`;
    return this.#validator.requestProblems(this.#operation, { [array]: [order] }).map((p) => ({
      ...p,
      pointer: p.pointer.replace(`/${array}/0`, ''),
      field: p.field.startsWith(`${prefix}.`) ? p.field.slice(prefix.length + 1) : p.field === prefix ? '' : p.field,
    }));
  }
}
