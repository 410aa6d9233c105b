import type { PathSegment } from '../../walk-record.ts';
import { formatFieldPath } from '../field-path.ts';
import { walkRecord, type RecordLeaf } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import type { ConformanceContext } from '../conformance-context.ts';
import { richFixtures, type ConformanceFixture } from '../conformance-fixtures.ts';
import type { FailureList } from '../failure-list.ts';
import { arraysIn, cloneRecord, valueAt, withValueAt } from '../record-edits.ts';

function startsWith(segments: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  return prefix.every((segment, i) => segments[i] === segment);
}

function swapped(record: object, a: readonly PathSegment[], b: readonly PathSegment[]): object {
  return withValueAt(withValueAt(record, a, valueAt(record, b)), b, valueAt(record, a));
}

async function checkFixture(context: ConformanceContext, failures: FailureList, fixture: ConformanceFixture): Promise<void> {
  const { record, name } = fixture;
  const signature = await context.sign(context.messageOf(fixture, record));
  const leaves = walkRecord(record);
  const refuse = (path: string, edited: object, change: string) =>
    failures.expectRefused(context, { fixture: name, path }, context.messageOf(fixture, edited), signature, change);

  for (const { segments, array } of arraysIn(record)) {
    if (array.length < 2) continue;
    const path = formatFieldPath(segments);
    const inside = leaves.filter((leaf) => startsWith(leaf.segments, segments));
    const reversed = [...array].reverse();
    if (inside.some((leaf) => context.covers(leaf.path)) && JSON.stringify(reversed) !== JSON.stringify(array)) {
      await refuse(path, withValueAt(record, segments, cloneRecord(reversed)), `reversing the elements of ${path}`);
    }
    // The same field of two sibling elements, values exchanged: each element's pairs must stay bound to it.
    for (const leaf of inside.filter((l) => startsWith(l.segments, [...segments, 0]))) {
      const twin = [...segments, 1, ...leaf.segments.slice(segments.length + 1)];
      const twinValue = valueAt(record, twin);
      const twinPath = formatFieldPath(twin);
      if (twinValue === undefined || twinValue === valueAt(record, leaf.segments)) continue;
      if (!context.covers(leaf.path) || !context.covers(twinPath)) continue;
      await refuse(leaf.path, swapped(record, leaf.segments, twin), `exchanging the values of ${leaf.path} and ${twinPath}`);
    }
  }

  // One field name at two depths (`first_name` of beneficiary and payer, `price_id` and `subscription.price_id`).
  const byKey = new Map<string, RecordLeaf[]>();
  for (const leaf of leaves) {
    const key = leaf.segments.at(-1);
    if (typeof key === 'string') byKey.set(key, [...(byKey.get(key) ?? []), leaf]);
  }
  for (const group of byKey.values()) {
    const first = group[0]!;
    const other = group.find((leaf) => leaf !== first && leaf.value !== first.value);
    if (!other || !context.covers(first.path) || !context.covers(other.path)) continue;
    await refuse(first.path, swapped(record, first.segments, other.segments), `exchanging the values of ${first.path} and ${other.path}`);
  }
}

/** Values inside arrays and nested objects stay bound to their place: reordering or exchanging them fails. */
export const nestedStructuresCheck: ConformanceCheck = {
  id: 'nested-structures',
  title: 'binds values in nested arrays and objects to their place (reordered elements, exchanged values)',
  async run(context, failures) {
    for (const fixture of richFixtures) {
      await failures.attempt({ fixture: fixture.name }, () => checkFixture(context, failures, fixture));
    }
  },
};
