import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** A new batch id: time-ordered, unique. */
export function newBatchId(): string {
  return `batch-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`;
}

/** A name for this worker's leases: host:pid:random (the default of `holder`). */
export function newHolderName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
