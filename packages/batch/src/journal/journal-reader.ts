import { createReadStream } from 'node:fs';
import type { JournalEntry } from './batch-journal.ts';
import { JournalDamagedError } from '../errors.ts';

const NEWLINE = 0x0a;
const ENTRY_TYPES: ReadonlySet<string> = new Set(['start', 'intent', 'outcomes', 'sent', 'end', 'input']);

/** What a read found out about the file's end: where its last complete line ends. */
export interface JournalExtent {
  /** Bytes up to and including the last newline: everything after is a torn tail that never counted. */
  completeBytes: number;
}

function parseLine(path: string, text: string, line: number, byte: number): JournalEntry {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    throw new JournalDamagedError({ journal: path, line, byte, problem: 'is not JSON' });
  }
  const type = (entry as { type?: unknown } | null)?.type;
  if (typeof entry !== 'object' || entry === null || typeof type !== 'string' || !ENTRY_TYPES.has(type)) {
    throw new JournalDamagedError({ journal: path, line, byte, problem: 'is not a journal entry (no known "type")' });
  }
  return entry as JournalEntry;
}

/**
 * Reads every complete entry of a journal. A line counts only once its newline is written (an entry is one line of
 * JSON, which never holds a raw newline); an unterminated last line is a torn tail (a crash or a full disk mid-write:
 * its fdatasync never completed, so it never counted) and is skipped. Any other line that is not an entry raises a
 * JournalDamagedError naming its line and byte. `extent.completeBytes` is set once the read is done.
 */
export async function* readJournalEntries(path: string, extent?: JournalExtent): AsyncGenerator<JournalEntry> {
  let carry: Buffer | null = null;
  let base = 0; // byte offset of carry (or of the chunk when there is none)
  let line = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    const buffer: Buffer = carry === null ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      line += 1;
      const text = buffer.toString('utf8', start, end);
      if (text.trim() !== '') yield parseLine(path, text, line, base + start);
      start = end + 1;
    }
    base += start;
    carry = start < buffer.length ? buffer.subarray(start) : null;
  }
  if (extent) extent.completeBytes = base;
}
