import { walkRecord } from '../record-leaves.ts';
import type { ConformanceCheck } from '../conformance-check.ts';
import { unicodeFixture } from '../conformance-fixtures.ts';
import { withValueAt } from '../record-edits.ts';
import { expectRoundTrip, tamperEveryLeaf } from './tamper-leaves.ts';

// Each edit keeps the text looking alike; a signature must cover the exact characters sent.
const edits: readonly { change: string; apply: (value: string) => string }[] = [
  { change: 'normalising to NFC', apply: (v) => v.normalize('NFC') },
  { change: 'normalising to NFD', apply: (v) => v.normalize('NFD') },
  {
    change: 'replacing an astral character with the next code point',
    apply: (v) => v.replace(/[\u{10000}-\u{10FFFF}]/u, (c) => String.fromCodePoint(c.codePointAt(0)! === 0x10ffff ? 0x10000 : c.codePointAt(0)! + 1)),
  },
  { change: 'removing zero-width joiners', apply: (v) => v.replaceAll('\u200d', '') },
  { change: 'removing combining marks', apply: (v) => v.replace(/\p{M}/gu, '') },
];

/** Astral, combining, joined and right-to-left text signs, verifies, and any change to it is detected. */
export const unicodeCheck: ConformanceCheck = {
  id: 'unicode',
  title: 'signs unicode (astral, combining, joiners, right-to-left) and detects look-alike changes to it',
  async run(context, failures) {
    const fixture = unicodeFixture;
    await expectRoundTrip(context, failures, fixture);
    await tamperEveryLeaf(context, failures, fixture);
    await failures.attempt({ fixture: fixture.name }, async () => {
      const signature = await context.sign(context.messageOf(fixture, fixture.record));
      for (const leaf of walkRecord(fixture.record)) {
        if (!context.covers(leaf.path)) continue;
        for (const { change, apply } of edits) {
          // Number leaves have no such characters, so every edited leaf is a string.
          const edited = apply(leaf.value);
          if (edited === leaf.value) continue;
          const tampered = context.messageOf(fixture, withValueAt(fixture.record, leaf.segments, edited));
          await failures.expectRefused(context, { fixture: fixture.name, path: leaf.path }, tampered, signature, `${change} in ${leaf.path}`);
        }
      }
    });
  },
};
