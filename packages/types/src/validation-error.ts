import { GW_ERROR_CODES, GwError } from './errors.ts';

/** One problem found in a record: where it is and what is wrong (never the offending value). */
export interface ValidationProblem {
  /** JSON Pointer into the record, e.g. `/capture_orders/0/amount`. */
  readonly pointer: string;
  /** The same place written as a field path, e.g. `capture_orders[0].amount`. */
  readonly field: string;
  /** The JSON Schema keyword that failed (`pattern`, `maxItems`, `type`, ...). */
  readonly keyword: string;
  /** What is wrong, in words. */
  readonly message: string;
}

/** A record broke the formats the spec states; every problem is listed at once. */
export class ValidationError extends GwError<{ operation: string; schema: string; problems: readonly ValidationProblem[] }> {
  override readonly name = 'ValidationError';

  constructor(operation: string, schema: string, problems: readonly ValidationProblem[], hint?: string) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    const list = problems.map((p) => `${p.field || '(record)'}: ${p.message}`).join('; ');
    super(GW_ERROR_CODES.validation, `${operation}: ${count} in ${schema}: ${list}${hint ? `. ${hint}` : ''}`, {
      operation,
      schema,
      problems,
    });
  }
}
