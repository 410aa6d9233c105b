// Property tests of the CSV and JSONL order sources: whatever the bytes, the only outcomes are orders (objects of text)
// or an OrderSourceError naming a line; never another exception, never a hang.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderSourceError, ordersFromCsv, ordersFromJsonl } from '../src/index.ts';

// 100,000 inputs per source on Node 24; CI runs the published packages' tests again on Node 22, where a fifth proves
// the same thing in a fifth of the time.
const RUNS = Number(process.env.GW_ORDER_SOURCE_RUNS) || (process.versions.node.startsWith('22') ? 20_000 : 100_000);

const bytes = (s: string) => new TextEncoder().encode(s);
const BIG = 'x'.repeat(70_000);

/** Pieces a hostile or broken orders file is made of. */
const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'transaction_id',
      'order_no',
      'amount',
      'currency',
      ',',
      ',',
      '"',
      '""',
      '\n',
      '\r\n',
      '\r',
      ' ',
      'T1',
      '10.00',
      'USD',
      '\uFEFF',
      '__proto__',
      'constructor',
      '{',
      '}',
      '[',
      ']',
      ':',
      '"a"',
      '"__proto__"',
      'null',
      '1e999',
      '-0',
      'true',
      '\\',
      '\\u0000',
      '\u2028',
      '#',
    ),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

/** Now and then one big piece: nesting thousands deep, or a field over the line limit. */
const rare = fc.oneof(
  { weight: 30, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => `{"order_no":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n)) },
  { weight: 1, arbitrary: fc.constant(BIG) },
);

function lineCount(all: Uint8Array): number {
  // A lone CR ends a line for the CSV reader; CRLF and LF end one for both.
  let lines = 1;
  for (let i = 0; i < all.length; i += 1) if (all[i] === 0x0a || (all[i] === 0x0d && all[i + 1] !== 0x0a)) lines += 1;
  return lines;
}

/** A file's bytes, with invalid UTF-8 mixed in and cut into chunks at arbitrary points (inside characters too). */
const fileChunks = fc
  .tuple(
    fc.array(fc.oneof({ weight: 8, arbitrary: piece.map(bytes) }, { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }) }), { maxLength: 40 }),
    rare.map(bytes),
    fc.nat(),
    fc.array(fc.nat(), { maxLength: 4 }),
  )
  .map(([parts, big, where, cuts]) => {
    parts.splice(where % (parts.length + 1), 0, big);
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    const points = [...new Set(cuts.map((c) => (all.length === 0 ? 0 : c % all.length)))].sort((a, b) => a - b);
    const chunks: Uint8Array[] = [];
    let from = 0;
    for (const p of points) {
      chunks.push(all.subarray(from, p));
      from = p;
    }
    chunks.push(all.subarray(from));
    return { chunks, lines: lineCount(all) };
  });

/** Reads every order; plain checks rather than expect(), which would cost more than the reading at this count. */
async function outcome(orders: AsyncIterable<unknown>, lines: number): Promise<void> {
  try {
    for await (const order of orders) {
      if (order === null || typeof order !== 'object' || Object.getPrototypeOf(order) !== Object.prototype)
        throw new Error('an order that is not a plain object');
      for (const value of Object.values(order)) if (typeof value !== 'string') throw new Error(`an order member of type ${typeof value}`);
    }
  } catch (error) {
    if (!(error instanceof OrderSourceError)) throw error;
    const { file, line } = error.details;
    if (error.code !== 'GW_DECODE' || file !== 'input.txt') throw new Error(`wrong code or file: ${error.code} ${file}`);
    if (line !== null && !(Number.isInteger(line) && line >= 1 && line <= lines)) throw new Error(`line ${line} outside 1..${lines}`);
  }
}

describe('order sources under arbitrary input', () => {
  for (const [name, read] of [
    ['CSV', ordersFromCsv],
    ['JSONL', ordersFromJsonl],
  ] as const) {
    it(`${name}: ${RUNS} generated files give orders or an OrderSourceError, each within 2 s`, async () => {
      await fc.assert(
        fc.asyncProperty(fileChunks, ({ chunks, lines }) => outcome(read(chunks, { name: 'input.txt' }), lines)),
        { numRuns: RUNS, timeout: 2_000 },
      );
    }, 120_000);
  }

  it('well-formed files read back exactly what was written, however they are chunked', async () => {
    const text = fc.string({ maxLength: 20 }).filter((s) => s.trim() === s && !s.includes('\uFEFF'));
    const table = fc
      .tuple(
        fc.uniqueArray(
          fc.stringMatching(/^[a-z_]{1,12}$/).filter((s) => s !== '__proto__'),
          { minLength: 1, maxLength: 5 },
        ),
        fc.nat({ max: 20 }),
        fc.nat(),
      )
      .chain(([columns, count, cut]) =>
        fc
          .array(fc.array(text, { minLength: columns.length, maxLength: columns.length }), { minLength: count, maxLength: count })
          .map((rows) => ({ columns, rows, cut })),
      );
    await fc.assert(
      fc.asyncProperty(table, fc.boolean(), async ({ columns, rows, cut }, crlf) => {
        const expected = rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]!])));
        const csv = bytes(stringify([columns, ...rows], { record_delimiter: crlf ? '\r\n' : '\n', quoted_string: true }));
        const jsonl = bytes(expected.map((o) => JSON.stringify(o)).join(crlf ? '\r\n' : '\n'));
        const split = (b: Uint8Array) => [b.subarray(0, cut % (b.length + 1)), b.subarray(cut % (b.length + 1))];
        const read = async (it: AsyncIterable<unknown>) => {
          const out: unknown[] = [];
          for await (const o of it) out.push(o);
          return out;
        };
        expect(await read(ordersFromCsv(split(csv)))).toEqual(expected);
        expect(await read(ordersFromJsonl(split(jsonl)))).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  }, 120_000);
});
