import { walkRecord } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import { allFixtures, richFixtures } from '../conformance-fixtures.ts';

/** sign gives a non-empty string (sync or a promise), verify a boolean, and the declared coverage covers something. */
export const contractCheck: ConformanceCheck = {
  id: 'contract',
  title: 'sign returns a non-empty string (or a promise of one) and verify returns a boolean',
  async run(context, failures) {
    const fixture = richFixtures[0]!;
    await failures.attempt({ fixture: fixture.name }, async () => {
      const message = context.messageOf(fixture, fixture.record);
      const signature = await context.sign(message);
      if ((await context.verify(message, signature)) !== true)
        failures.fail({ fixture: fixture.name }, "verify did not return true for the signer's own signature");
    });
    const covered = allFixtures.some((f) => walkRecord(f.record).some((leaf) => context.covers(leaf.path)));
    if (!covered) failures.fail({}, 'signedFields covers no field of any fixture, so no tampering could be detected');
  },
};
