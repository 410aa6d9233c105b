import type { SignableField } from './signable-field.ts';
import { visitRecordLeaves } from './walk-record.ts';

/**
 * Flattens a record into its (field path, value) pairs, in the record's own key order, without `encryption_data`.
 * Empty arrays and empty objects give no pair, so `{ capture_orders: [] }` flattens like `{}`.
 */
export function flattenRecord(record: object): SignableField[] {
  const fields: SignableField[] = [];
  visitRecordLeaves(record, {}, (path, value) => fields.push({ path, value }));
  return fields;
}
