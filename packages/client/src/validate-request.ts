import {
  operations,
  RecordValidator,
  ValidationError,
  type OperationName,
  type OperationSpec,
  type UnknownFieldPolicy,
  type ValidationProblem,
} from '@gw/types';

const SPECS = Object.values(operations) as readonly OperationSpec[];
// The other operations on the same path, per operation (two share /v1/authorise).
const SIBLINGS: ReadonlyMap<string, readonly OperationSpec[]> = new Map(
  SPECS.map((op) => [op.name, SPECS.filter((other) => other.path === op.path && other.name !== op.name)]),
);

// UNKNOWNS U34: two operations share /v1/authorise and the gateway tells them apart by one member's presence, so a
// request that would be read as the other variant is refused before it leaves.
function variantProblems(operation: OperationName, record: Record<string, unknown>): ValidationProblem[] {
  const op: OperationSpec = operations[operation];
  const siblings = SIBLINGS.get(operation) ?? [];
  if (siblings.length === 0) return [];
  const problems: ValidationProblem[] = [];
  if (op.selectWhenPresent && record[op.selectWhenPresent] === undefined) {
    const field = op.selectWhenPresent;
    problems.push({
      pointer: `/${field}`,
      field,
      keyword: 'required',
      message: `is required by ${operation}: its presence is what selects this variant of ${op.path} (UNKNOWNS U34)`,
    });
  }
  for (const sibling of siblings) {
    const field = sibling.selectWhenPresent;
    if (field && !op.selectWhenPresent && record[field] !== undefined) {
      problems.push({ pointer: `/${field}`, field, keyword: 'not', message: `must be absent: its presence selects ${sibling.name} (UNKNOWNS U34)` });
    }
  }
  return problems;
}

// In a batch operation a top-level `maxItems` is the order array (or a query selection list) over the limit.
function overLimit(op: OperationSpec, problems: readonly ValidationProblem[]): boolean {
  return op.batch !== null && problems.some((p) => p.keyword === 'maxItems' && p.pointer.lastIndexOf('/') === 0);
}

/** Validates request records before anything is sent: one RecordValidator (one compiled validator per schema, on first use). */
export class RequestValidation {
  readonly #validator = new RecordValidator();

  /** Throws one ValidationError naming every problem; a batch over its limit points to @gw/batch. */
  check(
    operation: OperationName,
    record: Record<string, unknown>,
    known: readonly ValidationProblem[] = [],
    unknownFields: UnknownFieldPolicy = 'refuse',
  ): void {
    const op: OperationSpec = operations[operation];
    const schemaProblems = this.#validator.requestProblems(operation, record, { unknownFields });
    const variant = variantProblems(operation, record);
    if (schemaProblems.length === 0 && variant.length === 0 && known.length === 0) return;
    const found = [...known, ...variant];
    const covered = new Set(found.map((p) => p.field.replace(/\[\d+\]$/, '')));
    // The schema's own finding for a field already reported (a query list over the limit) would say the same twice.
    for (const problem of schemaProblems) if (!covered.has(problem.field)) found.push(problem);
    const hint = overLimit(op, found)
      ? `${operation} takes at most ${op.batch!.limit} orders per request (seed §8); @gw/batch sends any number of orders in chunks of ${op.batch!.limit}`
      : undefined;
    throw new ValidationError(operation, op.requestSchema, found, hint);
  }
}
