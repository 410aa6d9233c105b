// UNKNOWNS U36: the fields that select the orders to query are not shown; the default is the spec's x-gw-query-selection.
import { operations, querySelection, type ValidationProblem } from '@gw/types';

/** The orders to query: each field a list, or one string already joined by the separator (`,`). */
export interface QueryInput {
  readonly order_no?: string | readonly string[];
  readonly transaction_id?: string | readonly string[];
}

/** The selection as lists of values, what a `querySelection` builder gets. */
export interface QuerySelectionValues {
  readonly order_no: readonly string[];
  readonly transaction_id: readonly string[];
}

/** Builds the form fields that select orders (`querySelection` option); returns field name → value. */
export type QuerySelectionBuilder = (selection: QuerySelectionValues) => Readonly<Record<string, string>>;

const SEPARATOR = querySelection.separator;
const FIELDS = querySelection.fields;

/** The default: `order_no` and `transaction_id`, each one form field of values joined by `,` (empty lists left out). */
export const defaultQuerySelection: QuerySelectionBuilder = (selection) => {
  const fields: Record<string, string> = {};
  for (const field of FIELDS) if (selection[field].length > 0) fields[field] = selection[field].join(SEPARATOR);
  return fields;
};

function values(input: string | readonly string[] | undefined): readonly string[] {
  if (input === undefined) return [];
  return typeof input === 'string' ? input.split(SEPARATOR).filter((value) => value !== '') : input;
}

/** The selection as lists, and every problem with it: over the limit (`x-gw-batch.limit`), or a value holding the separator. */
export function readQuerySelection(input: QueryInput): { selection: QuerySelectionValues; problems: ValidationProblem[] } {
  const limit = operations.query.batch.limit;
  const selection = { order_no: values(input.order_no), transaction_id: values(input.transaction_id) };
  const problems: ValidationProblem[] = [];
  for (const field of FIELDS) {
    const list = selection[field];
    if (list.length > limit) problems.push({ pointer: `/${field}`, field, keyword: 'maxItems', message: `has ${list.length} values, more than ${limit}` });
    list.forEach((value, index) => {
      if (typeof value !== 'string') problems.push({ pointer: `/${field}/${index}`, field: `${field}[${index}]`, keyword: 'type', message: 'must be of type string' });
      else if (value === '' || value.includes(SEPARATOR)) {
        problems.push({ pointer: `/${field}/${index}`, field: `${field}[${index}]`, keyword: 'pattern', message: `must be a non-empty value without the separator "${SEPARATOR}"` });
      }
    });
  }
  return { selection, problems };
}
