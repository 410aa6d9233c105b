import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { BatchOperation } from './batch-operation.ts';
import type { OrderOutcome } from './outcome.ts';

/** One line of the journal. */
export type JournalEntry =
  | { readonly type: 'start'; readonly version: 1; readonly operation: BatchOperation; readonly limit: number; readonly at: string }
  | { readonly type: 'intent'; readonly chunk: number; readonly orders: readonly { index: number; order: Record<string, unknown> }[]; readonly at: string }
  | {
      readonly type: 'outcomes';
      readonly chunk: number | null;
      readonly outcomes: readonly OrderOutcome[];
      /** Orders a query showed not applied after an unanswered request: they go out again in a later chunk. */
      readonly resend?: readonly number[];
      readonly at: string;
    }
  | { readonly type: 'end'; readonly at: string };

/**
 * The batch's journal: an append-only JSONL file. Each chunk's intent is written and fsynced before its request is
 * sent, and its outcomes are written and fsynced after; a crash between the two leaves an intent without outcomes,
 * which `resumeBatch` settles by querying, never by sending blindly again.
 */
export class BatchJournal {
  readonly path: string;
  readonly #file: FileHandle;
  #queue: Promise<void> = Promise.resolve();

  private constructor(path: string, file: FileHandle) {
    this.path = path;
    this.#file = file;
  }

  /** Opens (creating or appending to) a journal file. */
  static async open(path: string): Promise<BatchJournal> {
    return new BatchJournal(path, await open(path, 'a'));
  }

  /** Appends entries as one write and fsyncs them; appends are serialised so lines never interleave. */
  append(...entries: JournalEntry[]): Promise<void> {
    const text = entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
    const next = this.#queue.then(async () => {
      await this.#file.appendFile(text, 'utf8');
      await this.#file.datasync();
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Closes the file after pending appends. */
  async close(): Promise<void> {
    await this.#queue;
    await this.#file.close();
  }

  /** Reads every complete entry of a journal; a torn last line (a crash mid-write) is ignored. */
  static async *read(path: string): AsyncGenerator<JournalEntry> {
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let pending: string | null = null;
    for await (const line of lines) {
      if (pending !== null) yield JSON.parse(pending) as JournalEntry;
      pending = line.trim() === '' ? null : line;
    }
    if (pending !== null) {
      try {
        yield JSON.parse(pending) as JournalEntry;
      } catch {
        // The process died while writing its last line: that line's fsync never completed, so it never counted.
      }
    }
  }
}
