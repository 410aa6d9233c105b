import type { ConformanceCheck } from '../conformance-check.ts';
import { richFixtures } from '../conformance-fixtures.ts';
import { objectsIn, withValueAt } from '../record-edits.ts';

const SIGNATURE_VALUES = ['', '351a346020eeee13bb7d938f36fe7a0c1ceb259701fc4d647f5b77d6f9940d03', 'not a signature ✓ 𝄞'];

/** A record that carries `encryption_data`, at the top or nested, signs exactly like the same record without it. */
export const encryptionDataExcludedCheck: ConformanceCheck = {
  id: 'encryption-data-excluded',
  title: 'signs a record carrying encryption_data (at any level, any value) exactly like the record without it',
  async run(context, failures) {
    for (const fixture of richFixtures) {
      await failures.attempt({ fixture: fixture.name }, async () => {
        const clean = context.messageOf(fixture, fixture.record);
        const expected = await context.sign(clean);
        for (const value of SIGNATURE_VALUES) {
          const atTop = withValueAt(fixture.record, ['encryption_data'], value);
          const everywhere = objectsIn(atTop).reduce<object>((r, o) => withValueAt(r, [...o.segments, 'encryption_data'], value), atTop);
          for (const [where, record] of [
            ['at the top', atTop],
            ['at every level', everywhere],
          ] as const) {
            const signature = await context.sign(context.messageOf(fixture, record));
            if (signature !== expected) {
              failures.fail({ fixture: fixture.name, path: 'encryption_data' }, `encryption_data ${where} changed the signature`);
            } else if (!(await context.verify(clean, signature))) {
              failures.fail({ fixture: fixture.name, path: 'encryption_data' }, `verify refused a signature made with encryption_data ${where}`);
            }
          }
        }
      });
    }
  },
};
