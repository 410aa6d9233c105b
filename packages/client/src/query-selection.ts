// UNKNOWNS U36: the fields that select the orders to query are not shown; the default is the spec's x-gw-query-selection.
import { closestName, operations, querySelection, type ValidationProblem } from '@gw/types';

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
// Filled in (merchant_id, account_id) or computed (encryption_data) by the client, whatever the caller gives.
const IDENTITY: ReadonlySet<string> = new Set(['merchant_id', 'account_id', 'encryption_data']);
const FIELDS = querySelection.fields;

/** The default: `order_no` and `transaction_id`, each one form field of values joined by `,` (empty lists left out). */
export const defaultQuerySelection: QuerySelectionBuilder = (selection) => {
  const fields: Record<string, string> = {};
  for (const field of FIELDS) if (selection[field].length > 0) fields[field] = selection[field].join(SEPARATOR);
  return fields;
};

function values(input: unknown): readonly unknown[] | null {
  if (input === undefined) return [];
  if (typeof input === 'string') return input.split(SEPARATOR).filter((value) => value !== '');
  return Array.isArray(input) ? input : null;
}

/** The selection as lists, and every problem with it: over the limit (`x-gw-batch.limit`), or a value holding the separator. */
export function readQuerySelection(input: QueryInput): { selection: QuerySelectionValues; problems: ValidationProblem[] } {
  const limit = operations.query.batch.limit;
  const problems: ValidationProblem[] = [];
  // The selection is the client's own shape: any other member is a mistake (card data included), never sent.
  for (const name of Object.keys(input)) {
    if ((FIELDS as readonly string[]).includes(name) || IDENTITY.has(name)) continue;
    const guess = closestName(name, FIELDS);
    problems.push({
      pointer: `/${name}`,
      field: name,
      keyword: 'unknown',
      message: `is not a query selection member (${FIELDS.join(', ')})${guess ? `; did you mean \`${guess}\`?` : ''}`,
    });
  }
  const selection = { order_no: [] as unknown[], transaction_id: [] as unknown[] };
  for (const field of FIELDS) {
    const list = values((input as Record<string, unknown>)[field]);
    if (list === null) {
      problems.push({ pointer: `/${field}`, field, keyword: 'type', message: 'must be a string or an array of strings' });
      continue;
    }
    selection[field] = list as unknown[];
    if (list.length > limit) problems.push({ pointer: `/${field}`, field, keyword: 'maxItems', message: `has ${list.length} values, more than ${limit}` });
    list.forEach((value, index) => {
      if (typeof value !== 'string')
        problems.push({ pointer: `/${field}/${index}`, field: `${field}[${index}]`, keyword: 'type', message: 'must be of type string' });
      else if (value === '' || value.includes(SEPARATOR)) {
        problems.push({
          pointer: `/${field}/${index}`,
          field: `${field}[${index}]`,
          keyword: 'pattern',
          message: `must be a non-empty value without the separator "${SEPARATOR}"`,
        });
      }
    });
  }
  return { selection: selection as QuerySelectionValues, problems };
}
