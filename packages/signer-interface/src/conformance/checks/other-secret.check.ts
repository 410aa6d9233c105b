import type { ConformanceCheck } from '../conformance-check.ts';
import { richFixtures } from '../conformance-fixtures.ts';

/** A signature made with another secret differs and is refused: the secret is really used. */
export const otherSecretCheck: ConformanceCheck = {
  id: 'other-secret',
  title: 'refuses a signature made with a different secret',
  skipReason: (context) => (context.hasOtherSecret ? undefined : 'pass signerWithOtherSecret to run this check'),
  async run(context, failures) {
    for (const fixture of richFixtures) {
      await failures.attempt({ fixture: fixture.name }, async () => {
        const message = context.messageOf(fixture, fixture.record);
        const own = await context.sign(message);
        const foreign = await context.signWithOtherSecret(message);
        if (foreign === own) failures.fail({ fixture: fixture.name }, 'another secret gave the same signature: the secret is not used');
        else await failures.expectRefused(context, { fixture: fixture.name }, message, foreign, 'being given a signature made with another secret');
      });
    }
  },
};
