import { walkRecord } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import { richFixtures } from '../conformance-fixtures.ts';

function withCharacterChanged(signature: string, index: number): string {
  const characters = [...signature];
  const at = index < 0 ? characters.length + index : index;
  characters[at] = characters[at] === 'a' ? 'b' : 'a';
  return characters.join('');
}

/** Empty, cut, extended, altered, oversized or foreign signatures give false, and never a throw. */
export const malformedSignaturesCheck: ConformanceCheck = {
  id: 'malformed-signatures',
  title: 'returns false, without throwing, for empty, truncated, extended, altered, oversized and foreign signatures',
  async run(context, failures) {
    const [fixture, other] = [richFixtures[0]!, richFixtures[1]!];
    await failures.attempt({ fixture: fixture.name }, async () => {
      const message = context.messageOf(fixture, fixture.record);
      const signature = await context.sign(message);
      const foreign = await context.sign(context.messageOf(other, other.record));
      const candidates: readonly [string, string][] = [
        ['an empty signature', ''],
        ['the signature without its last character', signature.slice(0, -1)],
        ['the signature with one more character', `${signature}${signature.at(-1)}`],
        ['the signature with its first character changed', withCharacterChanged(signature, 0)],
        ['the signature with its last character changed', withCharacterChanged(signature, -1)],
        ['the signature repeated twice', signature + signature],
        ['a 10,000-character signature', 'a'.repeat(10_000)],
      ];
      // Another record's signature only has to fail when the records differ in a field the algorithm covers.
      const covered = (record: object) =>
        JSON.stringify(
          walkRecord(record)
            .filter((leaf) => context.covers(leaf.path))
            .map((l) => [l.path, l.value]),
        );
      const all = covered(fixture.record) === covered(other.record) ? candidates : [...candidates, ['the signature of another record', foreign] as const];
      for (const [what, candidate] of all) {
        await failures.expectRefused(context, { fixture: fixture.name }, message, candidate, `being given ${what}`);
      }
    });
  },
};
