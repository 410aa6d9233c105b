import { ENCRYPTION_DATA, isPlainObject } from './walk-record.ts';

function omit(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(omit);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key !== ENCRYPTION_DATA) copy[key] = omit(value[key]);
  }
  return copy;
}

/** A copy of the record without `encryption_data` at any level: what to encode as the body that gets signed. */
export function omitEncryptionData<T extends object>(record: T): T {
  return omit(record) as T;
}
