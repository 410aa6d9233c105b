// Journal files that keep less of the journal's promise, for GW_BENCH_BATCH_VARIANT (bench.ts, quick runs only): they
// tell which part of the journal's cost is serialising, which is writing and which is the O_DSYNC. Never for real use.
import { constants } from 'node:fs';
import { open, rename, stat, writeFile } from 'node:fs/promises';
import type { JournalFile, OpenJournalFile, SyncedJournalFile } from '@gw/batch';

/** The variants bench.ts can run beside the real journal. */
export const JOURNAL_VARIANTS = ['no-sync', 'dev-null', 'no-write', 'overwrite'] as const;
export type JournalVariant = (typeof JOURNAL_VARIANTS)[number];

/** What each variant leaves out, for the printed line. */
export const JOURNAL_VARIANT_LABELS: Record<JournalVariant, string> = {
  'no-sync': 'journal written to the file without O_DSYNC or fdatasync (not durable)',
  'dev-null': 'journal written to /dev/null (the write syscalls, no file)',
  'no-write': 'journal entries serialised, nothing written (resolved on the next turn of the event loop)',
  overwrite: 'O_DSYNC writes over a file extended beforehand with zeros, 4 MiB at a time (the file size changes once per extent, not once per write)',
};

/** A journal file that resolves each write on the next turn of the event loop, writing nothing. */
function nothingWritten(): SyncedJournalFile {
  const write = async (text: string): Promise<{ bytesWritten: number; buffer: string }> => {
    await new Promise((resolve) => setImmediate(resolve));
    return { bytesWritten: Buffer.byteLength(text, 'utf8'), buffer: text };
  };
  return { syncedWrites: true, write: write as unknown as JournalFile['write'], datasync: async () => {}, close: async () => {} };
}

const EXTENT = 4 * 2 ** 20;

/** A journal file written in place over zeros laid down an extent ahead (durable writes that do not grow the file). */
async function overwritten(path: string): Promise<SyncedJournalFile> {
  // Zeros laid down before the run (prepareVariant), moved in place now that runBatch has seen no journal there.
  const ahead = await stat(`${path}.zeros`).then((s) => s.size, () => 0);
  if (ahead > 0) await rename(`${path}.zeros`, path);
  const file = await open(path, constants.O_CREAT | constants.O_WRONLY | constants.O_DSYNC, 0o666);
  let end = 0;
  let allocated = ahead;
  const write = async (text: string): Promise<{ bytesWritten: number; buffer: string }> => {
    const bytes = Buffer.from(text, 'utf8');
    while (end + bytes.length > allocated) {
      await file.write(Buffer.alloc(EXTENT), 0, EXTENT, allocated);
      allocated += EXTENT;
    }
    const { bytesWritten } = await file.write(bytes, 0, bytes.length, end);
    end += bytesWritten;
    return { bytesWritten, buffer: text };
  };
  return { syncedWrites: true, write: write as unknown as JournalFile['write'], datasync: async () => {}, close: () => file.close() };
}

/** How the variant's journal file is opened (as `runBatch`'s `journalFile`). */
export function openVariantFile(variant: JournalVariant): OpenJournalFile {
  // Marked syncedWrites so the journal calls no datasync after its writes.
  const unsynced = async (path: string): Promise<JournalFile> => Object.assign(await open(path, 'a'), { syncedWrites: true as const });
  switch (variant) {
    case 'no-sync':
      return unsynced;
    case 'dev-null':
      return () => unsynced('/dev/null');
    case 'no-write':
      return async () => nothingWritten();
    case 'overwrite':
      return overwritten;
  }
}

/** Work a variant does before the measured run: `overwrite` lays down the zeros of a whole run's journal beforehand. */
export async function prepareVariant(variant: JournalVariant, path: string, bytes: number): Promise<void> {
  if (variant !== 'overwrite') return;
  await writeFile(`${path}.zeros`, Buffer.alloc(Math.ceil(bytes / EXTENT) * EXTENT), { flush: true });
}
