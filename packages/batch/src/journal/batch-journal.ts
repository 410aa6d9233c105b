import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { BatchOperation } from '../operation/batch-operations.ts';
import { readJournalEntries } from './journal-reader.ts';
import { JournalWriteError } from '../errors.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { InputRange } from '../intake/input-digest.ts';

/** An outcome as journaled: `order` is left out when the chunk's intent already holds it. */
export type JournaledOutcome = Omit<OrderOutcome, 'order'> & { readonly order?: OrderOutcome['order'] };

/** The outcome with its order: its own when the line carries it, else the one the index's intent journaled. */
export function withJournaledOrder(outcome: JournaledOutcome, intentOrders: ReadonlyMap<number, Record<string, unknown>>): OrderOutcome {
  if (outcome.order !== undefined) return outcome as OrderOutcome;
  return { ...outcome, order: intentOrders.get(outcome.index) ?? {} };
}

/**
 * An outcome as a chunk's outcomes entry (or a PostgreSQL result row) holds it: every member but `order` (the chunk's
 * intent or text holds it), built member by member (a rest pattern copies through a slower generic path); absent
 * members stay absent. `withJournaledOrder` puts the order back.
 */
export function withoutOrder(outcome: OrderOutcome): JournaledOutcome {
  const { index, kind, result, reason, problems, reconciled, reconcile } = outcome;
  const journaled: { -readonly [K in keyof JournaledOutcome]: JournaledOutcome[K] } = { index, kind };
  if (result !== undefined) journaled.result = result;
  if (reason !== undefined) journaled.reason = reason;
  if (problems !== undefined) journaled.problems = problems;
  if (reconciled !== undefined) journaled.reconciled = reconciled;
  if (reconcile !== undefined) journaled.reconcile = reconcile;
  return journaled;
}

// Fails to compile when OrderOutcome gains a member withoutOrder does not copy.
type Uncopied = Exclude<keyof OrderOutcome, 'order' | 'index' | 'kind' | 'result' | 'reason' | 'problems' | 'reconciled' | 'reconcile'>;
const everyMemberCopied: [Uncopied] extends [never] ? true : never = true;
void everyMemberCopied;

/** One line of the journal. */
export type JournalEntry =
  | { readonly type: 'start'; readonly version: 1; readonly operation: BatchOperation; readonly limit: number; readonly at: string }
  | {
      readonly type: 'intent';
      readonly chunk: number;
      /**
       * `resends`: how many times the order was sent again after a query showed it not applied; `interrupted`: how many
       * of its sends a crash cut off with nothing to prove they left (neither counts this one; each left out when 0).
       */
      readonly orders: readonly { index: number; order: Record<string, unknown>; resends?: number; interrupted?: number }[];
      readonly at: string;
    }
  | {
      readonly type: 'outcomes';
      readonly chunk: number | null;
      /** A chunk's outcomes leave out `order` (its intent carries it); outcomes of no chunk (rejections) carry it. */
      readonly outcomes: readonly JournaledOutcome[];
      /** Orders a query showed not applied after an unanswered request: they go out again in a later chunk. */
      readonly resend?: readonly number[];
      /** Of `resend`, the orders whose send a crash cut off unproven: their next send does not count against maxResends. */
      readonly notCounted?: readonly number[];
      /** Orders of a chunk whose intent was written ahead and which was never sent (the batch stopped first). */
      readonly unsent?: readonly number[];
      readonly at: string;
    }
  /** A chunk's call is over (answered, or failed in a way that may have followed sending) and its orders are in doubt. */
  | { readonly type: 'sent'; readonly chunk: number; readonly at: string }
  | { readonly type: 'end'; readonly at: string }
  /**
   * What the batch's input was, as it was read (written with the intake's writes): `range`, the orders read since the
   * last such entry and their digest; `declared`, the number of orders the batch was started with; `sealed`, every
   * input order was read: how many, and the digest of the whole input. A resume checks its input against them.
   */
  | {
      readonly type: 'input';
      readonly range?: InputRange;
      readonly declared?: number;
      readonly sealed?: { readonly total: number; readonly digest: string };
      readonly at: string;
    };

/** The file operations the journal uses; a `node:fs/promises` FileHandle opened for appending is one. */
export type JournalFile = Pick<FileHandle, 'write' | 'datasync' | 'close'>;

/** A JournalFile opened with `O_DSYNC`: a write is on disk when it resolves, so the journal calls no `datasync` after it. */
export interface SyncedJournalFile extends JournalFile {
  readonly syncedWrites: true;
}

/** Opens a journal file for appending (default: `openSyncedJournalFile`). */
export type OpenJournalFile = (path: string) => Promise<JournalFile>;

/**
 * Opens a journal file for appending with `O_DSYNC` where the platform has it: each write returns once its data is
 * on disk, as write + fdatasync would, in one call instead of two (one trip to the thread pool per group, not two).
 * Elsewhere `open(path, 'a')`, each write followed by `datasync`.
 */
export async function openSyncedJournalFile(path: string): Promise<JournalFile | SyncedJournalFile> {
  const { O_APPEND, O_CREAT, O_WRONLY, O_DSYNC } = constants;
  if (O_DSYNC === undefined) return open(path, 'a');
  const file = await open(path, O_APPEND | O_CREAT | O_WRONLY | O_DSYNC, 0o666);
  return Object.assign(file, { syncedWrites: true as const });
}

/** Entries waiting for the next write, and who waits for them to be on disk. */
interface PendingAppend {
  readonly text: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The batch's journal: an append-only JSONL file. Each chunk's intent is written and fsynced before its request is
 * sent, and its outcomes are written and fsynced after; a crash between the two leaves an intent without outcomes,
 * which `resumeBatch` settles by querying, never by sending blindly again.
 *
 * Appends are group-committed: entries appended while a write and fdatasync are under way wait for it to end, then go
 * to disk together in one write and one fdatasync. Each append still resolves only once its own lines are on disk, in
 * the order appended; with several chunks in flight, one sync covers several of them instead of queueing one each.
 */
export class BatchJournal {
  readonly path: string;
  readonly #file: JournalFile;
  /** The file's writes are durable when they resolve (O_DSYNC): no datasync after them. */
  readonly #syncedWrites: boolean;
  #pending: PendingAppend[] = [];
  #flushing: Promise<void> | null = null;
  /** Set by the first failed write: the file may end in a torn line, so nothing more is appended after it. */
  #broken: JournalWriteError | null = null;

  private constructor(path: string, file: JournalFile) {
    this.path = path;
    this.#file = file;
    this.#syncedWrites = (file as Partial<SyncedJournalFile>).syncedWrites === true;
  }

  /** Opens (creating or appending to) a journal file. */
  static async open(path: string, openFile: OpenJournalFile = openSyncedJournalFile): Promise<BatchJournal> {
    return new BatchJournal(path, await openFile(path));
  }

  /**
   * Appends entries and resolves once they are on disk (an O_DSYNC write, or a write and fdatasync); lines never
   * interleave, order is kept. After a failed write every append rejects with the same JournalWriteError: a line after
   * a torn one would damage the file.
   */
  append(...entries: JournalEntry[]): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    const text = entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ text, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Writes and syncs what is pending, group after group, until nothing is. */
  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const group = this.#pending;
      this.#pending = [];
      try {
        if (this.#broken) throw this.#broken;
        await this.#write(group.length === 1 ? group[0]!.text : group.map((p) => p.text).join(''));
        if (!this.#syncedWrites) await this.#file.datasync();
        for (const p of group) p.resolve();
      } catch (error) {
        this.#broken ??= error instanceof JournalWriteError ? error : new JournalWriteError(this.path, error);
        for (const p of group) p.reject(this.#broken);
      }
    }
    this.#flushing = null;
  }

  /**
   * Writes the text at the end of the file (opened for appending). The string goes to the file as it is: no Buffer per
   * group, whose external memory would make the collector run more often; a short write goes on from where it ended.
   */
  async #write(text: string): Promise<void> {
    const { bytesWritten } = await this.#file.write(text, null, 'utf8');
    const total = Buffer.byteLength(text, 'utf8');
    if (bytesWritten < total) {
      const rest = Buffer.from(text, 'utf8');
      for (let at = bytesWritten; at < total;) at += (await this.#file.write(rest, at, total - at)).bytesWritten;
    }
  }

  /** Closes the file after pending appends. */
  async close(): Promise<void> {
    await this.#flushing;
    await this.#file.close();
  }

  /**
   * Reads every complete entry of a journal: a torn last line (a crash or a full disk mid-write, no newline) is
   * skipped; any other line that is not an entry raises a JournalDamagedError saying where.
   */
  static read(path: string): AsyncGenerator<JournalEntry> {
    return readJournalEntries(path);
  }
}
