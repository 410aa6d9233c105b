import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { checkedText, MAX_ORDER_LINE_BYTES, type OrderBytes } from './checked-text.ts';
import { OrderSourceError } from './order-source-error.ts';
import { csvProblem, headerProblems, jsonlProblems } from './order-problems.ts';

/** Where orders are read from: a file's path, or bytes (a stream, chunks) with a name for errors. */
export interface OrderSourceOptions {
  /** The name errors give the input (default: the path, or `input`). */
  readonly name?: string;
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

/**
 * Streams the orders of a CSV file with a header row (one object per row, values as text, trimmed); never loads it
 * whole. A malformed line throws `OrderSourceError` (code GW_DECODE) naming the line.
 */
export async function* ordersFromCsv(source: string | OrderBytes, options: OrderSourceOptions = {}): AsyncGenerator<Record<string, string>> {
  const { bytes, name } = open(source, options);
  const parser = parse({ skip_empty_lines: true, trim: true, bom: true, relax_column_count: true, info: true, max_record_size: MAX_ORDER_LINE_BYTES });
  const text = Readable.from((async function* () {
    for await (const run of checkedText(bytes, name)) yield run.text;
  })(), { objectMode: false });
  const piped = pipeline(text, parser);
  piped.catch(() => {}); // the same error reaches the loop below through the parser
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (header === undefined) {
        const problems = headerProblems(record);
        if (problems.length > 0) throw new OrderSourceError(name, info.lines, `the header row ${problems.join('; ')}`);
        header = record;
        continue;
      }
      if (record.length !== header.length) throw new OrderSourceError(name, info.lines, `the row has ${record.length} field(s), the header has ${header.length}; quote a field that holds a comma ("a,b")`);
      const order: Record<string, string> = {};
      for (let i = 0; i < header.length; i += 1) order[header[i]!] = record[i]!;
      yield order;
    }
  } catch (error) {
    throw csvProblem(error, name);
  } finally {
    parser.destroy();
  }
}

/**
 * Streams the orders of a JSONL file (one JSON object of text members per line, blank lines skipped); never loads it
 * whole. A line that is not such an object throws `OrderSourceError` (code GW_DECODE) naming the line.
 */
export async function* ordersFromJsonl(source: string | OrderBytes, options: OrderSourceOptions = {}): AsyncGenerator<Record<string, string>> {
  const { bytes, name } = open(source, options);
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
      yield parsed;
    }
  }
}
