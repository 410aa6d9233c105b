import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Where and why an orders file could not be read: `line` is the file's 1-based line (null: the file as a whole). */
export interface OrderSourceProblem {
  readonly file: string;
  readonly line: number | null;
  readonly problem: string;
}

/**
 * A line of a CSV or JSONL orders file is not an order (bad quoting, wrong column count, invalid UTF-8, not a JSON
 * object of text members, over-long). The message and details name the file and line and never echo the line's
 * content, which may hold data that must not be printed.
 */
export class OrderSourceError extends GwError<OrderSourceProblem> {
  override readonly name = 'OrderSourceError';

  constructor(file: string, line: number | null, problem: string) {
    const where = line === null ? file : `${file}, line ${line}`;
    super(GW_ERROR_CODES.decode, `${where}: ${problem}; fix the file and read it again`, { file, line, problem });
  }
}
