import fc from 'fast-check';
import { specSchemas } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { decodeItems, DecodeError, encodeItems, ItemsFormatError, type ItemRecord } from '../src/index.ts';
import { thrown } from './thrown.ts';

const component = (unit: fc.Arbitrary<string>) => fc.string({ unit, maxLength: 8 });
const records = (unit: fc.Arbitrary<string>) => fc.array(fc.tuple(component(unit), component(unit), component(unit), component(unit)), { maxLength: 5 });
// The characters that make separators, so near-misses (`#,`, `##,#`, `;#`) are frequent.
const tricky = fc.constantFrom('#', ',', ';', 'a', ' ');
const itemRecordsPattern = new RegExp((specSchemas as { $defs: Record<string, { pattern: string }> }).$defs.ItemRecords!.pattern, 'u');

describe('items string', () => {
  it('encodes and decodes the spec example', () => {
    const example: ItemRecord[] = [
      ['a', 'b', 'c', 'd'],
      ['e', 'f', 'g', 'h'],
    ];
    expect(encodeItems(example)).toBe('a#,#b#,#c#,#d#;#e#,#f#,#g#,#h');
    expect(decodeItems('a#,#b#,#c#,#d#;#e#,#f#,#g#,#h')).toEqual(example);
    expect(decodeItems('')).toEqual([]);
    expect(encodeItems([])).toBe('');
    expect(decodeItems('#,##,##,#')).toEqual([['', '', '', '']]);
  });

  it('decode(encode(x)) equals x whenever encode accepts x, and never corrupts a record silently', () => {
    fc.assert(
      fc.property(records(tricky), (input) => {
        let text: string;
        try {
          text = encodeItems(input);
        } catch (error) {
          expect(error).toBeInstanceOf(ItemsFormatError);
          return;
        }
        expect(decodeItems(text)).toEqual(input);
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts every record whose components have no `#`, and its output matches the spec pattern ItemRecords', () => {
    fc.assert(
      fc.property(
        records(fc.constantFrom(',', ';', 'a', ' ', 'é', '😀', '%', '&')).filter((r) => r.length > 0),
        (input) => {
          const text = encodeItems(input);
          expect(decodeItems(text)).toEqual(input);
          expect(text).toMatch(itemRecordsPattern);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a component containing a separator, naming the record and component', () => {
    const error = thrown(() =>
      encodeItems([
        ['a', 'b', 'c', 'd'],
        ['e', 'x#;#y', 'g', 'h'],
      ]),
    );
    expect(error).toBeInstanceOf(ItemsFormatError);
    expect((error as ItemsFormatError).code).toBe('GW_ITEMS');
    expect((error as ItemsFormatError).details).toEqual({ failure: 'contains-separator', record: 1, component: 1 });
    expect((error as Error).message).not.toContain('x#;#y');
    expect(() => encodeItems([['a#,#b', '', '', '']])).toThrow(ItemsFormatError);
  });

  it('refuses a component ending in `#,` or `#;` before a separator, but not at the very end', () => {
    expect((thrown(() => encodeItems([['x#,', 'b', 'c', 'd']])) as ItemsFormatError).details).toEqual({ failure: 'forms-separator', record: 0, component: 0 });
    expect(
      (
        thrown(() =>
          encodeItems([
            ['a', 'b', 'c', 'd#;'],
            ['e', 'f', 'g', 'h'],
          ]),
        ) as ItemsFormatError
      ).details.failure,
    ).toBe('forms-separator');
    expect(decodeItems(encodeItems([['a', 'b', 'c', 'd#,']]))).toEqual([['a', 'b', 'c', 'd#,']]);
  });

  it('refuses a record that is not four strings', () => {
    expect((thrown(() => encodeItems([['a', 'b', 'c'] as unknown as ItemRecord])) as ItemsFormatError).details).toEqual({
      failure: 'record-shape',
      record: 0,
      component: null,
    });
  });

  it('refuses to decode a record without four components, naming it', () => {
    const error = thrown(() => decodeItems('a#,#b#,#c#,#d#;#e#,#f'));
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).details).toEqual({ format: 'items', failure: 'items-shape', path: 'items[1]' });
  });
});
