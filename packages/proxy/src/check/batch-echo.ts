// Seed §2.6: a batch answer's element "echoes the request fields", so a member every request element carried must be in
// every answer element, from the first answer on (no earlier answer needed to miss it).
import type { OperationSpec } from '@gw/types';
import type { DriftRecorder } from '../report/drift-recorder.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The member names every element of the request's order array carries (none when it has no such array). */
function echoedNames(op: OperationSpec, request: Record<string, unknown>): string[] {
  const elements = op.batch && op.batch.separator === null ? request[op.batch.array] : undefined;
  if (!Array.isArray(elements) || elements.length === 0 || !elements.every(isRecord)) return [];
  return Object.keys(elements[0]!).filter((name) => name !== 'encryption_data' && elements.every((element) => Object.hasOwn(element, name)));
}

/**
 * Reports, once per answer, each request member some element of a batch answer does not echo (`missing-field` at
 * `capture_orders[].amount`); returns the paths it reported.
 */
export function checkBatchEcho(
  op: OperationSpec,
  request: Record<string, unknown> | null,
  answer: Record<string, unknown>,
  recorder: DriftRecorder,
): ReadonlySet<string> {
  const reported = new Set<string>();
  if (!request || !op.batch) return reported;
  const names = echoedNames(op, request);
  const results = answer[op.batch.responseArray];
  if (names.length === 0 || !Array.isArray(results)) return reported;
  for (const name of names) {
    if (results.every((result) => !isRecord(result) || Object.hasOwn(result, name))) continue;
    const path = `${op.batch.responseArray}[].${name}`;
    reported.add(path);
    recorder.drift({
      operation: op.name,
      side: 'response',
      kind: 'missing-field',
      path,
      message: 'is not echoed, though every element of the request carried it (seed §2.6)',
      example: '',
      seenType: null,
    });
  }
  return reported;
}
