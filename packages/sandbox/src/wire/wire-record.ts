import { textOf } from '@gw/types';

/** A decoded request record: field name to value. */
export type WireRecord = Record<string, unknown>;

/** A string field of a record, or "" when absent or not a string. */
export function text(record: WireRecord, field: string): string {
  return textOf(record[field]);
}
