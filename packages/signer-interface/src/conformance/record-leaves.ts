import { visitRecordLeaves, type PathSegment, type WalkFrame } from '../walk-record.ts';

/** A leaf of a record: where it is and its value as signed text. */
export interface RecordLeaf {
  readonly segments: readonly PathSegment[];
  readonly path: string;
  readonly value: string;
}

/** The leaves of a record as a signable message has them, each with its own copy of its segments (to edit the record there). */
export function walkRecord(record: unknown): RecordLeaf[] {
  const leaves: RecordLeaf[] = [];
  visitRecordLeaves(record, {}, (path, value, segment, frame) => leaves.push({ segments: segmentsTo(segment, frame), path, value }));
  return leaves;
}

// The segments from the record to a leaf: its own, after those of the containers above it.
function segmentsTo(segment: PathSegment, frame: WalkFrame): PathSegment[] {
  const segments = [segment];
  for (let above: WalkFrame | undefined = frame; above?.segment !== undefined; above = above.parent) segments.unshift(above.segment);
  return segments;
}
