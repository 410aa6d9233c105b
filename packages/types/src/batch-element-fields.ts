import { operations, type OperationName } from './generated/operations.gen.ts';
import { querySelection } from './generated/wire-defaults.gen.ts';
import { shapeOf } from './known-fields.ts';

/**
 * The member names the spec lists for one order of a batch operation, in the spec's order: the members of an item of
 * its order array (`operations[name].batch.array` of its request schema: `capture_orders` items for capture), or for a
 * selection joined into one string (query, `batch.separator`) the selection's fields (`querySelection.fields`). Null
 * for an operation without a batch row.
 */
export function batchElementFields(operation: OperationName): readonly string[] | null {
  const spec = operations[operation];
  const batch = spec.batch;
  if (batch === null) return null;
  if (batch.separator !== null) return querySelection.fields;
  const items = shapeOf(spec.requestSchema).members.get(batch.array)?.items;
  return items ? [...items.members.keys()] : [];
}
