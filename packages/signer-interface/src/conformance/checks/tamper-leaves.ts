import { walkRecord } from '../record-leaves.ts';
import type { ConformanceContext } from '../conformance-context.ts';
import type { ConformanceFixture } from '../conformance-fixtures.ts';
import type { FailureList } from '../failure-list.ts';
import { alteredValues, valueAt, withValueAt } from '../record-edits.ts';

/** Signs the fixture, then changes each covered field alone (first and last character, or the number) and expects a refusal. */
export async function tamperEveryLeaf(context: ConformanceContext, failures: FailureList, fixture: ConformanceFixture): Promise<void> {
  await failures.attempt({ fixture: fixture.name }, async () => {
    const signature = await context.sign(context.messageOf(fixture, fixture.record));
    for (const leaf of walkRecord(fixture.record)) {
      if (!context.covers(leaf.path)) continue;
      for (const altered of alteredValues(valueAt(fixture.record, leaf.segments))) {
        const tampered = context.messageOf(fixture, withValueAt(fixture.record, leaf.segments, altered));
        await failures.expectRefused(context, { fixture: fixture.name, path: leaf.path }, tampered, signature, `changing the value of ${leaf.path}`);
      }
    }
  });
}

/** Signs the fixture and expects its own verifier to accept the signature. */
export async function expectRoundTrip(context: ConformanceContext, failures: FailureList, fixture: ConformanceFixture): Promise<void> {
  await failures.attempt({ fixture: fixture.name }, async () => {
    const message = context.messageOf(fixture, fixture.record);
    const signature = await context.sign(message);
    if (!(await context.verify(message, signature))) failures.fail({ fixture: fixture.name }, "verify refused the signer's own signature");
  });
}
