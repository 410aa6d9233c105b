// Writes the table of each batch operation's order columns into README.md (between the markers below) from
// `orderColumnsOf`, which reads the spec's generated tables: the same columns `gw batch` checks. `--check` changes
// nothing and exits 1 when the README's table differs; a test does the same.
// Run: pnpm --filter @gw/cli readme:columns [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_OPERATIONS, orderColumnsOf } from '@gw/batch';

export const README = join(import.meta.dirname, '..', 'README.md');
export const COLUMNS_START = '<!-- gw:batch-columns:start: written by scripts/readme-columns.ts from the spec; do not edit -->';
export const COLUMNS_END = '<!-- gw:batch-columns:end -->';

const names = (columns: readonly string[]): string => (columns.length === 0 ? '—' : columns.map((column) => `\`${column}\``).join(', '));

/** The table: one row per batch operation, its columns in the spec's order and what each is for. */
export function batchColumnsTable(): string {
  const rows = BATCH_OPERATIONS.map((operation) => {
    const { columns, identifying, optional, ignored } = orderColumnsOf(operation);
    return `| \`${operation}\` | ${names(columns)} | ${names(identifying)} | ${names(optional)} | ${names(ignored)} |`;
  });
  return ['| operation | columns | identify each order (one is needed) | optional | allowed, not read |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** `readme` with the text between the markers replaced by the table; throws when a marker is missing. */
export function readmeWithColumns(readme: string): string {
  const from = readme.indexOf(COLUMNS_START);
  const to = readme.indexOf(COLUMNS_END);
  if (from < 0 || to < from) throw new Error(`README.md lacks the markers ${COLUMNS_START} ... ${COLUMNS_END}`);
  return `${readme.slice(0, from + COLUMNS_START.length)}\n${batchColumnsTable()}\n${readme.slice(to)}`;
}

if (import.meta.main) {
  const current = readFileSync(README, 'utf8');
  const next = readmeWithColumns(current);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error(
        'readme-columns --check: the batch columns table in packages/cli/README.md differs from the spec; run `pnpm --filter @gw/cli readme:columns`',
      );
      process.exit(1);
    }
    console.log('readme-columns --check: the batch columns table matches the spec');
  } else if (next !== current) {
    writeFileSync(README, next);
    console.log('readme-columns: wrote the batch columns table into packages/cli/README.md');
  } else console.log('readme-columns: the batch columns table is up to date');
}
