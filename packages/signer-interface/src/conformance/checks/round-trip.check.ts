import type { ConformanceCheck } from '../conformance-check.ts';
import { allFixtures } from '../conformance-fixtures.ts';
import { expectRoundTrip } from './tamper-leaves.ts';

/** The verifier accepts the signer's signature of every fixture. */
export const roundTripCheck: ConformanceCheck = {
  id: 'round-trip',
  title: 'verifies its own signature of every record',
  async run(context, failures) {
    for (const fixture of allFixtures) await expectRoundTrip(context, failures, fixture);
  },
};
