import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { BatchOperation } from './operation/batch-operations.ts';
import { checkedText, MAX_ORDER_LINE_BYTES, type OrderBytes } from './checked-text.ts';
import { OrderColumnsError, OrderSourceError } from './errors.ts';
import { checkOrderColumns } from './intake/order-columns.ts';
import { csvProblem, headerProblems, jsonlProblems } from './order-problems.ts';

/** Where orders are read from: a file's path, or bytes (a stream, chunks) with a name for errors. */
export interface OrderSourceOptions {
  /** The name errors give the input (default: the path, or `input`). */
  readonly name?: string;
  /**
   * The batch operation the orders are for: its columns (the CSV header row, the members of the first JSONL record)
   * are checked before the first order is given, and `OrderColumnsError` (code GW_VALIDATION) names every unknown one
   * and a missing identifying one. Without it, any columns are read.
   */
  readonly operation?: BatchOperation;
}

function open(source: string | OrderBytes, options: OrderSourceOptions): { bytes: OrderBytes; name: string } {
  const name = options.name ?? (typeof source === 'string' ? source : 'input');
  return { bytes: typeof source === 'string' ? readBytes(source, name) : source, name };
}

async function* readBytes(path: string, name: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of createReadStream(path)) yield chunk as Buffer;
  } catch (error) {
    throw new OrderSourceError(name, null, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'read error'})`);
  }
}

/** Line ends as the CSV reader counts them: CRLF, LF and a lone CR each end one line. */
function lineEnds(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) count += 1;
  }
  return count;
}

type CsvRow = { record: string[]; info: { lines: number } };

/** Turns the CSV rows into orders: the first is the header, checked; every other must have as many fields. */
class CsvOrders {
  readonly #name: string;
  readonly #operation: BatchOperation | undefined;
  #header: string[] | undefined;

  constructor(name: string, operation: BatchOperation | undefined) {
    this.#name = name;
    this.#operation = operation;
  }

  /** The lines read so far; the CSV reader's own count can run ahead of them (CRLF inside quotes, end of input). */
  lines = 0;

  /** The line of a row, within the lines read. */
  line(reported: number): number {
    return Math.max(1, Math.min(reported, this.lines));
  }

  /** The order of a row, or null for the header row. */
  order(row: CsvRow): Record<string, string> | null {
    const record = row.record;
    const info = { lines: this.line(row.info.lines) };
    if (this.#header === undefined) {
      const problems = headerProblems(record);
      if (problems.length > 0) throw new OrderSourceError(this.#name, info.lines, `the header row ${problems.join('; ')}`);
      if (this.#operation) checkOrderColumns({ file: this.#name, format: 'csv', line: info.lines, operation: this.#operation }, record);
      this.#header = record;
      return null;
    }
    const header = this.#header;
    if (record.length !== header.length)
      throw new OrderSourceError(
        this.#name,
        info.lines,
        `the row has ${record.length} field(s), the header has ${header.length}; quote a field that holds a comma ("a,b")`,
      );
    const order: Record<string, string> = {};
    for (let i = 0; i < header.length; i += 1) order[header[i]!] = record[i]!;
    return order;
  }
}

/**
 * Streams the orders of a CSV file with a header row (one object per row, values as text, trimmed); never loads it
 * whole. A malformed line throws `OrderSourceError` (code GW_DECODE) naming the line; with `operation`, a header row
 * that does not fit it throws `OrderColumnsError` (code GW_VALIDATION) before the first order.
 */
export async function* ordersFromCsv(source: string | OrderBytes, options: OrderSourceOptions = {}): AsyncGenerator<Record<string, string>> {
  const { bytes, name } = open(source, options);
  // Every line end counts as one line, mixed or not, so the line an error names is the line an editor shows.
  const parser = parse({
    skip_empty_lines: true,
    trim: true,
    bom: true,
    relax_column_count: true,
    info: true,
    max_record_size: MAX_ORDER_LINE_BYTES,
    record_delimiter: ['\r\n', '\n', '\r'],
  });
  parser.on('error', () => {}); // read through `errored` below and the final iteration
  const rows = new CsvOrders(name, options.operation);
  try {
    for await (const run of checkedText(bytes, name)) {
      // A write parses at once; its rows are read before the next one, so the parser never holds more than a run.
      rows.lines = run.firstLine + lineEnds(run.text);
      parser.write(run.text);
      for (let row = parser.read() as CsvRow | null; row !== null; row = parser.read() as CsvRow | null) {
        const order = rows.order(row);
        if (order) yield order;
      }
      if (parser.errored) throw parser.errored;
    }
    parser.end();
    for await (const row of parser as AsyncIterable<CsvRow>) {
      const order = rows.order(row);
      if (order) yield order;
    }
  } catch (error) {
    if (error instanceof OrderColumnsError) throw error;
    throw csvProblem(error, name, (line) => rows.line(line));
  } finally {
    parser.destroy();
  }
}

/**
 * Streams the orders of a JSONL file (one JSON object of text members per line, blank lines skipped); never loads it
 * whole. A line that is not such an object throws `OrderSourceError` (code GW_DECODE) naming the line; with
 * `operation`, a first record whose members do not fit it throws `OrderColumnsError` (code GW_VALIDATION) before it is given.
 */
export async function* ordersFromJsonl(source: string | OrderBytes, options: OrderSourceOptions = {}): AsyncGenerator<Record<string, string>> {
  const { bytes, name } = open(source, options);
  let first = true;
  for await (const run of checkedText(bytes, name)) {
    const lines = run.text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i += 1) {
      const number = run.firstLine + i;
      let line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
      if (number === 1 && line.startsWith('\uFEFF')) line = line.slice(1);
      if (line.trim() === '') continue;
      const parsed = jsonlProblems(line);
      if (typeof parsed === 'string') throw new OrderSourceError(name, number, parsed);
      if (first && options.operation) checkOrderColumns({ file: name, format: 'jsonl', line: number, operation: options.operation }, Object.keys(parsed));
      first = false;
      yield parsed;
    }
  }
}
