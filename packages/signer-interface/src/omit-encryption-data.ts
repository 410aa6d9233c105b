import { MAX_RECORD_DEPTH } from '@gw/types';
import { ENCRYPTION_DATA, formatFieldPath, isPlainObject, tooDeepError, type PathSegment } from './walk-record.ts';

// Recursive, but bounded: `segments` is the path to `value`, and a container deeper than MAX_RECORD_DEPTH is refused.
function omit(value: unknown, segments: PathSegment[]): unknown {
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) return value;
  if (segments.length >= MAX_RECORD_DEPTH) throw tooDeepError({}, formatFieldPath(segments));
  if (isArray) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) continue; // a hole stays a hole, as with map
      segments.push(i);
      copy[i] = omit(value[i], segments);
      segments.pop();
    }
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === ENCRYPTION_DATA) continue;
    segments.push(key);
    copy[key] = omit(value[key], segments);
    segments.pop();
  }
  return copy;
}

/**
 * A copy of the record without `encryption_data` at any level: what to encode as the body that gets signed. A record
 * nested deeper than `MAX_RECORD_DEPTH` is refused with `SignableMessageError` (reason `too-deep`).
 */
export function omitEncryptionData<T extends object>(record: T): T {
  return omit(record, []) as T;
}
