import { MAX_RECORD_DEPTH } from '@gw/types';
import { ENCRYPTION_DATA, isPlainObject, tooDeepError } from './walk-record.ts';

// Recursive, but bounded: `path` is where `value` is, `depth` how deep; a container deeper than MAX_RECORD_DEPTH is refused.
function omit(value: unknown, path: string, depth: number): unknown {
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) return value;
  if (depth >= MAX_RECORD_DEPTH) throw tooDeepError({}, path);
  if (isArray) {
    const copy: unknown[] = new Array(value.length);
    // A hole stays a hole, as with map.
    for (let i = 0; i < value.length; i++) if (i in value) copy[i] = omit(value[i], `${path}[${i}]`, depth + 1);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (key !== ENCRYPTION_DATA) copy[key] = omit(value[key], path === '' ? key : `${path}.${key}`, depth + 1);
  return copy;
}

/**
 * A copy of the record without `encryption_data` at any level: what to encode as the body that gets signed. A record
 * nested deeper than `MAX_RECORD_DEPTH` is refused with `SignableMessageError` (reason `too-deep`).
 */
export function omitEncryptionData<T extends object>(record: T): T {
  return omit(record, '', 0) as T;
}
