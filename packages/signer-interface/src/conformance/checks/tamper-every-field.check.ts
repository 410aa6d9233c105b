import type { ConformanceCheck } from '../conformance-check.ts';
import { richFixtures } from '../conformance-fixtures.ts';
import { tamperEveryLeaf } from './tamper-leaves.ts';

/** Changing any one field of a rich record, at any depth, makes the old signature fail. */
export const tamperEveryFieldCheck: ConformanceCheck = {
  id: 'tamper-every-field',
  title: 'refuses the signature once any single field of a rich record changes, at any depth',
  async run(context, failures) {
    for (const fixture of richFixtures) await tamperEveryLeaf(context, failures, fixture);
  },
};
