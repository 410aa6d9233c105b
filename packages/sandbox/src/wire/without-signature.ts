import type { WireRecord } from './wire-record.ts';

/** A copy of a record without its `encryption_data` (the signature is never part of what it signs). */
export function withoutSignature(record: WireRecord): WireRecord {
  const { encryption_data: _signature, ...unsigned } = record;
  return unsigned;
}
