// The README's table of each batch operation's columns is what scripts/readme-columns.ts writes from the spec's tables,
// and what `gw batch` checks: a spec change that adds an order field fails here until the script is run again.
import { readFileSync } from 'node:fs';
import { BATCH_OPERATIONS, orderColumnsOf } from '@gw/batch';
import { describe, expect, it } from 'vitest';
import { batchColumnsTable, COLUMNS_END, COLUMNS_START, README, readmeWithColumns } from '../scripts/readme-columns.ts';

describe('the README batch columns table', () => {
  it('is the table the script writes from the spec (run `pnpm --filter @gw/cli readme:columns` when it is not)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain(COLUMNS_START);
    expect(readme).toContain(COLUMNS_END);
    expect(readmeWithColumns(readme)).toBe(readme);
  });

  it('has a row per batch operation naming each of its columns, refund_amount for refund and review_flag for review among them', () => {
    const rows = batchColumnsTable().split('\n').slice(2);
    expect(rows).toHaveLength(BATCH_OPERATIONS.length);
    for (const [i, operation] of BATCH_OPERATIONS.entries()) {
      expect(rows[i]).toMatch(new RegExp(`^\\| \`${operation}\` \\|`));
      for (const column of orderColumnsOf(operation).columns) expect(rows[i]).toContain(`\`${column}\``);
    }
    expect(rows.find((row) => row.startsWith('| `refund`'))).toContain('`refund_amount`');
    expect(rows.find((row) => row.startsWith('| `review`'))).toContain('`review_flag`');
  });

  it('a stale table is found: readmeWithColumns rewrites what lies between the markers', () => {
    const stale = `intro\n${COLUMNS_START}\n| old |\n${COLUMNS_END}\nafter\n`;
    expect(readmeWithColumns(stale)).toBe(`intro\n${COLUMNS_START}\n${batchColumnsTable()}\n${COLUMNS_END}\nafter\n`);
  });
});
