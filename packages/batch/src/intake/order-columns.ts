import { batchElementFields, closestName, fieldWords, isCardDataField, querySelection } from '@gw/types';
import { OrderColumnsError } from '../errors.ts';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { BATCH_OPERATIONS, batchSpecOf } from '../operation/batch-operations.ts';

/** The columns (CSV header names, JSONL member names) an order of a batch operation may have, from the spec. */
export interface OrderColumns {
  /** Every column, in the spec's order: the members of one element of the operation's order array. */
  readonly columns: readonly string[];
  /** The columns that identify an order (`transaction_id`, or `order_no` when it has none): a file needs one of them. */
  readonly identifying: readonly string[];
  /** The other columns: each may be left out (every field is optional, UNKNOWNS U05). */
  readonly optional: readonly string[];
  /**
   * Columns read and left unused: for a query (its orders are a selection joined into one string, not elements sent
   * as they are) the other batch operations' columns, so a capture or refund file can be queried as it is. Else none.
   */
  readonly ignored: readonly string[];
}

/** A column the operation's orders do not have: its name as shown (or `column N`), its 1-based position, a close name. */
export interface UnknownOrderColumn {
  /** The name, or `column N` when it does not look like a name (digits, odd text: possibly a value). */
  readonly column: string;
  /** Its 1-based place among the columns (the CSV field, the JSONL member). */
  readonly position: number;
  /** The operation's column it most likely stands for (`txn`: `transaction_id`), or null. */
  readonly suggestion: string | null;
}

/** What is wrong with a file's columns for an operation: unknown columns, identifying ones missing, what is expected. */
export interface OrderColumnProblems {
  /** Every column the operation's orders do not have, in the file's order. */
  readonly unknown: readonly UnknownOrderColumn[];
  /** Empty, or every identifying column (the file has none of them: one is needed). */
  readonly missing: readonly string[];
  /** The file's columns that are the operation's (or allowed and ignored). */
  readonly known: readonly string[];
  /** Every column of the operation (`OrderColumns.columns`). */
  readonly expected: readonly string[];
  /** The columns that identify an order (`OrderColumns.identifying`). */
  readonly identifying: readonly string[];
  /** The columns allowed and left unused (`OrderColumns.ignored`). */
  readonly ignored: readonly string[];
}

/** Where a file's columns were refused and why: the file, its format, the line (the CSV header row, the first JSONL record). */
export interface OrderColumnsDetails extends OrderColumnProblems {
  /** The file's name as errors give it (`OrderSourceOptions.name`, else its path). */
  readonly file: string;
  /** `csv`: the columns are the header row; `jsonl`: the members of the first record. */
  readonly format: 'csv' | 'jsonl';
  /** The 1-based line the columns were read from. */
  readonly line: number;
  /** The batch operation the orders are for. */
  readonly operation: BatchOperation;
}

/** The file whose columns are checked: its name, its format, the line they were read from, the batch operation. */
export interface OrderColumnsPlace {
  /** The file's name as errors give it (`OrderSourceOptions.name`, else its path). */
  readonly file: string;
  /** `csv`: the columns are the header row; `jsonl`: the members of the first record. */
  readonly format: 'csv' | 'jsonl';
  /** The 1-based line the columns were read from. */
  readonly line: number;
  /** The batch operation the orders are for. */
  readonly operation: BatchOperation;
}

/**
 * The columns of an operation's orders, read from the generated tables (`batchElementFields`). An order is found again
 * (reconciled by query, keyed in the journal and ledger) by a field a query selects by (`querySelection.fields`), so
 * those identify it; every other column is optional. A selection (query) reads its identifying columns only.
 */
export function orderColumnsOf(operation: BatchOperation): OrderColumns {
  const columns = batchElementFields(operation) ?? [];
  const selects: readonly string[] = querySelection.fields;
  return {
    columns,
    identifying: columns.filter((column) => selects.includes(column)),
    optional: columns.filter((column) => !selects.includes(column)),
    ignored:
      batchSpecOf(operation).separator === null
        ? []
        : [...new Set(BATCH_OPERATIONS.flatMap((other) => batchElementFields(other) ?? []))].filter((column) => !columns.includes(column)),
  };
}

/** A column name as it may be printed: a name; anything else (digits, a long or odd text: a data row read as the header) by position. */
function shownColumn(name: string, position: number): string {
  return /^[\p{L}_][\p{L}\p{N}_ .-]{0,63}$/u.test(name) && !/\d{12,}/.test(name) ? name : `column ${position}`;
}

/**
 * The column `name` most likely stands for, among `candidates`: the same words spelled another way (`orderNumber`,
 * `Order_No`), a typo (edit distance at most 2), or the first or last words of exactly one column (`txn`, `order`,
 * `reason`).
 */
function suggestionFor(name: string, candidates: readonly string[]): string | null {
  const words = fieldWords(name);
  if (words === '') return null;
  const same = candidates.find((candidate) => fieldWords(candidate) === words);
  if (same) return same;
  const close = closestName(name, candidates);
  if (close) return close;
  const part = candidates.filter((candidate) => {
    const theirs = fieldWords(candidate);
    return theirs.startsWith(`${words}_`) || theirs.endsWith(`_${words}`);
  });
  return part.length === 1 ? part[0]! : null;
}

/**
 * The problems of a file's columns for `operation`, or null when it has none: every column the operation's orders do
 * not have (each with a close name when there is one), and the identifying columns when the file has none of them.
 * Only the names are read, never a value.
 */
export function orderColumnProblems(operation: BatchOperation, columns: readonly string[]): OrderColumnProblems | null {
  const { columns: expected, identifying, ignored } = orderColumnsOf(operation);
  const present = new Set(columns);
  const allowed = new Set([...expected, ...ignored]);
  // A close name is one the file does not have already.
  const candidates = [...allowed].filter((column) => !present.has(column));
  const unknown: UnknownOrderColumn[] = [];
  columns.forEach((name, index) => {
    if (allowed.has(name)) return;
    const position = index + 1;
    const shown = shownColumn(name, position);
    unknown.push({ column: shown, position, suggestion: shown === name && !isCardDataField(name) ? suggestionFor(name, candidates) : null });
  });
  const missing = identifying.some((column) => present.has(column)) ? [] : identifying;
  const known = columns.filter((name) => allowed.has(name));
  return unknown.length === 0 && missing.length === 0 ? null : { unknown, missing, known, expected, identifying, ignored };
}

/** Throws `OrderColumnsError` when `columns` do not fit the operation of `place`. */
export function checkOrderColumns(place: OrderColumnsPlace, columns: readonly string[]): void {
  const problems = orderColumnProblems(place.operation, columns);
  if (problems) throw new OrderColumnsError(place, problems);
}
