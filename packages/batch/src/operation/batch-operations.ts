import { operations, type BatchSpec } from '@gw/types';

type Operations = typeof operations;

/** The operations a batch runs: every operation of the generated table with a `batch` row (capture, cancel, review, refund, query). */
export type BatchOperation = { [K in keyof Operations]: Operations[K]['batch'] extends null ? never : K }[keyof Operations];

/** The batch operations, in the generated table's order. */
export const BATCH_OPERATIONS: readonly BatchOperation[] = (Object.keys(operations) as (keyof Operations)[]).filter(
  (name): name is BatchOperation => operations[name].batch !== null,
);

/** True when `name` is a batch operation. */
export function isBatchOperation(name: unknown): name is BatchOperation {
  return typeof name === 'string' && (BATCH_OPERATIONS as readonly string[]).includes(name);
}

/** The generated batch row of an operation: its array, response array, limit, status and error fields. */
export function batchSpecOf(operation: BatchOperation): BatchSpec {
  return operations[operation].batch;
}

/** True for an operation that moves money (everything but query): such an order is applied at most once. */
export function movesMoney(operation: BatchOperation): boolean {
  return operations[operation].retryClass === 'money-moving';
}
