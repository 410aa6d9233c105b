import type { PathSegment } from '../../walk-record.ts';
import { formatFieldPath } from '../field-path.ts';
import { walkRecord } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import type { ConformanceContext } from '../conformance-context.ts';
import { richFixtures, type ConformanceFixture } from '../conformance-fixtures.ts';
import type { FailureList } from '../failure-list.ts';
import { arraysIn, cloneRecord, objectsIn, withValueAt, withoutValueAt } from '../record-edits.ts';

const ADDED_KEY = 'added_field';
const ADDED_VALUE = 'added';

function under(prefix: readonly PathSegment[]) {
  return (leaf: { segments: readonly PathSegment[] }) => prefix.every((segment, i) => leaf.segments[i] === segment);
}

async function checkFixture(context: ConformanceContext, failures: FailureList, fixture: ConformanceFixture): Promise<void> {
  const { record, name } = fixture;
  const signature = await context.sign(context.messageOf(fixture, record));
  const refuse = (path: string, edited: object, change: string) =>
    failures.expectRefused(context, { fixture: name, path }, context.messageOf(fixture, edited), signature, change);
  const leaves = walkRecord(record);
  const coveredNonEmpty = (prefix: readonly PathSegment[]) => leaves.filter(under(prefix)).some((l) => l.value !== '' && context.covers(l.path));

  // Added: a member at the top and in every nested object, and one more element in every array.
  for (const segments of [[], ...objectsIn(record).map((o) => o.segments)]) {
    const added = [...segments, ADDED_KEY];
    const path = formatFieldPath(added);
    if (context.covers(path)) await refuse(path, withValueAt(record, added, ADDED_VALUE), `adding ${path}`);
  }
  for (const { segments, array } of arraysIn(record)) {
    if (array.length === 0) continue;
    const element = [...segments, array.length];
    const edited = withValueAt(record, segments, [...cloneRecord(array), cloneRecord(array.at(-1))]);
    const path = formatFieldPath(element);
    if (
      walkRecord(edited)
        .filter(under(element))
        .some((l) => l.value !== '' && context.covers(l.path))
    ) {
      await refuse(path, edited, `appending a copy of the last element as ${path}`);
    }
  }

  // Removed: every non-empty field, the last element of every array, every nested object.
  for (const leaf of leaves) {
    if (leaf.value !== '' && context.covers(leaf.path)) await refuse(leaf.path, withoutValueAt(record, leaf.segments), `removing ${leaf.path}`);
  }
  for (const { segments, array } of arraysIn(record)) {
    const last = [...segments, array.length - 1];
    if (array.length > 0 && coveredNonEmpty(last)) await refuse(formatFieldPath(last), withoutValueAt(record, last), `removing ${formatFieldPath(last)}`);
  }
  for (const { segments } of objectsIn(record)) {
    const path = formatFieldPath(segments);
    if (typeof segments.at(-1) === 'string' && coveredNonEmpty(segments)) await refuse(path, withoutValueAt(record, segments), `removing the object ${path}`);
  }
}

/** Adding a field (at any depth, or as a new array element) or removing one makes the old signature fail. */
export const addRemoveFieldsCheck: ConformanceCheck = {
  id: 'add-remove-fields',
  title: 'refuses the signature once a field, an array element or an object is added or removed',
  async run(context, failures) {
    for (const fixture of richFixtures) {
      await failures.attempt({ fixture: fixture.name }, () => checkFixture(context, failures, fixture));
    }
  },
};
