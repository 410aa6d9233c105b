import type { ConformanceCheck } from '../conformance-check.ts';
import { allFixtures } from '../conformance-fixtures.ts';
import { cloneRecord } from '../record-edits.ts';

/** The same message, or a message rebuilt from an equal record, always gets the same signature. */
export const determinismCheck: ConformanceCheck = {
  id: 'determinism',
  title: 'signs the same message the same way every time',
  async run(context, failures) {
    for (const fixture of allFixtures) {
      await failures.attempt({ fixture: fixture.name }, async () => {
        const message = context.messageOf(fixture, fixture.record);
        const first = await context.sign(message);
        if ((await context.sign(message)) !== first) failures.fail({ fixture: fixture.name }, 'signing the same message twice gave two signatures');
        const rebuilt = context.messageOf(fixture, cloneRecord(fixture.record));
        if ((await context.sign(rebuilt)) !== first) failures.fail({ fixture: fixture.name }, 'a message built from an equal record got another signature');
      });
    }
  },
};
