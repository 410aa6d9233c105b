import { visitRecordLeaves, type PathSegment } from '../walk-record.ts';

/** A leaf of a record: where it is and its value as signed text. */
export interface RecordLeaf {
  readonly segments: readonly PathSegment[];
  readonly path: string;
  readonly value: string;
}

/** The leaves of a record as a signable message has them, each with its own copy of its segments (to edit the record there). */
export function walkRecord(record: unknown): RecordLeaf[] {
  const leaves: RecordLeaf[] = [];
  visitRecordLeaves(record, {}, (path, value, segments) => leaves.push({ segments: [...segments], path, value }));
  return leaves;
}
