import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

/** Streams the records of a CSV file with a header row (one object per row, values as text); never loads it whole. */
export async function* ordersFromCsv(path: string): AsyncGenerator<Record<string, string>> {
  const parser = createReadStream(path).pipe(parse({ columns: true, skip_empty_lines: true, trim: true, bom: true }));
  for await (const row of parser) yield row as Record<string, string>;
}

/** Streams the records of a JSONL file (one JSON object per line); never loads it whole. */
export async function* ordersFromJsonl(path: string): AsyncGenerator<Record<string, unknown>> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${path}:${number}: not a JSON object`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${path}:${number}: not a JSON object`);
    yield value as Record<string, unknown>;
  }
}
