import { formatFieldPath } from '../field-path.ts';
import { walkRecord } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import { emptyValuesFixtures } from '../conformance-fixtures.ts';
import { arraysIn, objectsIn, withValueAt } from '../record-edits.ts';
import { expectRoundTrip, tamperEveryLeaf } from './tamper-leaves.ts';

/** Empty strings, arrays and objects (and an empty record) sign and verify; filling any of them in is detected. */
export const emptyValuesCheck: ConformanceCheck = {
  id: 'empty-values',
  title: 'signs empty strings, empty arrays, empty objects and an empty record, and detects a value filled in',
  async run(context, failures) {
    for (const fixture of emptyValuesFixtures) {
      await expectRoundTrip(context, failures, fixture);
      await tamperEveryLeaf(context, failures, fixture);
      await failures.attempt({ fixture: fixture.name }, async () => {
        const { record, name } = fixture;
        const signature = await context.sign(context.messageOf(fixture, record));
        const fill = async (segments: (string | number)[], value: unknown, change: string) => {
          const edited = withValueAt(record, segments, value);
          const path = formatFieldPath(segments);
          const newLeaves = walkRecord(edited).filter((l) => segments.every((s, i) => l.segments[i] === s));
          if (!newLeaves.some((l) => context.covers(l.path))) return;
          await failures.expectRefused(context, { fixture: name, path }, context.messageOf(fixture, edited), signature, change);
        };
        for (const { segments, array } of arraysIn(record)) {
          if (array.length === 0)
            await fill([...segments, 0], { order_no: 'ORD-1', amount: '1.00' }, `adding an element to the empty ${formatFieldPath(segments)}`);
        }
        for (const { segments, object } of objectsIn(record)) {
          if (Object.keys(object).length === 0) await fill([...segments, 'added_field'], '0', `filling in the empty ${formatFieldPath(segments)}`);
        }
        if (Object.keys(record).length === 0) await fill(['merchant_id'], 'M100200', 'filling in the empty record');
      });
    }
  },
};
