import { operations } from '@gw/types';
import { formatFieldPath } from '../field-path.ts';
import { walkRecord } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import { largeBatchFixtures } from '../conformance-fixtures.ts';
import { arraysIn, valueAt, withValueAt, withoutValueAt } from '../record-edits.ts';
import { expectRoundTrip, tamperEveryLeaf } from './tamper-leaves.ts';

/** Batches at the spec's limits (a review's and a refund's, from `operations`) sign, verify, and a change in any order is caught. */
export const largeBatchesCheck: ConformanceCheck = {
  id: 'large-batches',
  title: `signs a ${operations.review.batch.limit}-order review and a ${operations.refund.batch.limit}-order refund and detects a change to any order`,
  async run(context, failures) {
    for (const fixture of largeBatchFixtures) {
      await expectRoundTrip(context, failures, fixture);
      await tamperEveryLeaf(context, failures, fixture);
      await failures.attempt({ fixture: fixture.name }, async () => {
        const { record, name } = fixture;
        const signature = await context.sign(context.messageOf(fixture, record));
        const leaves = walkRecord(record);
        const covered = (prefix: readonly (string | number)[]) => leaves.some((l) => prefix.every((s, i) => l.segments[i] === s) && context.covers(l.path));
        const batch = arraysIn(record)[0]; // the order array is the outermost array
        if (!batch) return;
        const { segments, array } = batch;
        for (const index of [0, Math.floor(array.length / 2), array.length - 1]) {
          const element = [...segments, index];
          if (!covered(element)) continue;
          const path = formatFieldPath(element);
          await failures.expectRefused(
            context,
            { fixture: name, path },
            context.messageOf(fixture, withoutValueAt(record, element)),
            signature,
            `removing ${path}`,
          );
        }
        const first = [...segments, 0];
        const second = [...segments, 1];
        if (covered(first) || covered(second)) {
          const swapped = withValueAt(withValueAt(record, first, valueAt(record, second)), second, valueAt(record, first));
          await failures.expectRefused(
            context,
            { fixture: name, path: formatFieldPath(first) },
            context.messageOf(fixture, swapped),
            signature,
            'exchanging the first two orders',
          );
        }
      });
    }
  },
};
