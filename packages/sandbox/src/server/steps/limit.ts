import { refusal } from '../../refusals/errors.ts';
import type { V1Call } from '../v1-call.ts';

/** Limit: refuses (E002) an order array longer than the operation's batch limit. */
export function checkBatchLimit(call: V1Call): void {
  const batch = call.op.batch;
  if (!batch || batch.separator) return;
  const orders = call.record[batch.array];
  if (Array.isArray(orders) && orders.length > batch.limit) throw refusal('overBatchLimit', batch.array, orders.length, batch.limit);
}
