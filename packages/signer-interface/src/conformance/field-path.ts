import type { PathSegment } from '../walk-record.ts';

/** Writes segments as a field path: `capture_orders[0].amount`, `the service` (keys are not escaped). */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}
