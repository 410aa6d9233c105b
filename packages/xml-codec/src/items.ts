import { DecodeError } from './decode-error.ts';
import { readDecodeInput, type DecodeOptions } from './decode-options.ts';
import { ItemsFormatError } from './items-format-error.ts';

/** One `items` record: four opaque components whose meanings the seed does not show (UNKNOWNS U10). */
export type ItemRecord = readonly [c1: string, c2: string, c3: string, c4: string];

/** Text between the components of one record (§2.2). */
export const ITEM_COMPONENT_SEPARATOR = '#,#';
/** Text between records (§2.2). */
export const ITEM_RECORD_SEPARATOR = '#;#';
const COMPONENTS = 4;

function checkRecord(record: unknown, index: number, isLast: boolean): asserts record is ItemRecord {
  if (!Array.isArray(record) || record.length !== COMPONENTS || !record.every((c) => typeof c === 'string')) {
    throw new ItemsFormatError({ failure: 'record-shape', record: index, component: null }, `a record must be ${COMPONENTS} strings`);
  }
  for (let c = 0; c < COMPONENTS; c++) {
    const component = record[c] as string;
    if (component.includes(ITEM_COMPONENT_SEPARATOR) || component.includes(ITEM_RECORD_SEPARATOR)) {
      throw new ItemsFormatError(
        { failure: 'contains-separator', record: index, component: c },
        `a component must not contain "${ITEM_COMPONENT_SEPARATOR}" or "${ITEM_RECORD_SEPARATOR}"`,
      );
    }
    // `x#,` + `#,#` reads back as `x` + `#,#` + `,#...`: the only other way a component can be corrupted.
    const followed = !(isLast && c === COMPONENTS - 1);
    if (followed && (component.endsWith('#,') || component.endsWith('#;'))) {
      throw new ItemsFormatError(
        { failure: 'forms-separator', record: index, component: c },
        'a component followed by a separator must not end with "#," or "#;"',
      );
    }
  }
}

/** Joins item records into the `items` string (`#,#` between components, `#;#` between records); refuses any it would corrupt. */
export function encodeItems(records: readonly ItemRecord[]): string {
  const parts: string[] = [];
  records.forEach((record, index) => {
    checkRecord(record, index, index === records.length - 1);
    parts.push(record.join(ITEM_COMPONENT_SEPARATOR));
  });
  return parts.join(ITEM_RECORD_SEPARATOR);
}

/** Splits an `items` string into records of four components; `''` is no records. */
export function decodeItems(items: string, options?: DecodeOptions): ItemRecord[] {
  if (typeof items !== 'string')
    throw new DecodeError({ format: 'items', failure: 'not-text', path: 'items' }, `expected a string, got ${items === null ? 'null' : typeof items}`);
  const text = readDecodeInput(items, options, 'items');
  const records: ItemRecord[] = [];
  if (text === '') return records;
  let current: string[] = [];
  let start = 0;
  // One left-to-right scan for whichever separator comes first, exactly as the encoder's output is built.
  for (let at = text.indexOf('#', start); at !== -1; at = text.indexOf('#', at + 1)) {
    if (at + 2 >= text.length || text[at + 2] !== '#') continue;
    const mark = text[at + 1];
    if (mark !== ',' && mark !== ';') continue;
    current.push(text.slice(start, at));
    start = at + 3;
    if (mark === ';') {
      records.push(finishRecord(current, records.length));
      current = [];
    }
    at += 2;
  }
  current.push(text.slice(start));
  records.push(finishRecord(current, records.length));
  return records;
}

function finishRecord(components: string[], index: number): ItemRecord {
  if (components.length !== COMPONENTS) {
    throw new DecodeError(
      { format: 'items', failure: 'items-shape', path: `items[${index}]` },
      `record ${index} has ${components.length} components, expected ${COMPONENTS}`,
    );
  }
  return components as unknown as ItemRecord;
}
