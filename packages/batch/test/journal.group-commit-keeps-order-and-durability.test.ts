import { constants, mkdtempSync, readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchJournal, openSyncedJournalFile, type JournalFile, type SyncedJournalFile } from '../src/journal/batch-journal.ts';

const intent = (chunk: number) => ({
  type: 'intent' as const,
  chunk,
  orders: [{ index: chunk, order: { transaction_id: `T${chunk}` } }],
  at: '2026-11-23T00:00:00.000Z',
});

afterEach(() => vi.restoreAllMocks());

/** The prototype every node:fs/promises FileHandle shares: a spy on it sees the journal's own handle (read off a probe of `path`, created if missing). */
async function fileHandlePrototype<T extends object = FileHandle>(path: string): Promise<T> {
  const probe = await open(path, 'a');
  await probe.close();
  return Object.getPrototypeOf(probe) as T;
}

describe('the journal commits appends in groups', () => {
  it('resolves each append only once its line is in the file, keeps append order, and shares writes between appends made together', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'journal.jsonl');
    const fileHandle = await fileHandlePrototype(path);
    const writes = vi.spyOn(fileHandle, 'write');
    const syncs = vi.spyOn(fileHandle, 'datasync');

    let file: Partial<SyncedJournalFile> | undefined;
    const journal = await BatchJournal.open(path, async (p) => (file = await openSyncedJournalFile(p)));
    const seenOnResolve: boolean[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, chunk) =>
        journal.append(intent(chunk)).then(() => {
          seenOnResolve[chunk] = readFileSync(path, 'utf8').includes(`"chunk":${chunk},`);
        }),
      ),
    );
    await journal.close();

    expect(seenOnResolve.filter(Boolean)).toHaveLength(200);
    const chunks = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { chunk: number }).chunk);
    expect(chunks).toEqual(Array.from({ length: 200 }, (_, i) => i));
    // 200 appends made at once: the first goes alone, the 199 that arrived during its write share the next one.
    expect(writes.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(writes.mock.calls.length).toBeLessThanOrEqual(3);
    // Opened with O_DSYNC, a write is durable when it returns: no fdatasync after it (one call per group, not two).
    if (file?.syncedWrites) expect(syncs).not.toHaveBeenCalled();
    else expect(syncs.mock.calls.length).toBe(writes.mock.calls.length);
  });

  it.runIf(process.platform === 'linux')('opens the journal with O_DSYNC, so a write returns only once its data is on disk', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'journal.jsonl');
    const file = (await openSyncedJournalFile(path)) as SyncedJournalFile & { fd: number };
    const flags = Number.parseInt(/^flags:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${file.fd}`, 'utf8'))![1]!, 8);
    await file.close();
    expect(file.syncedWrites).toBe(true);
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect(flags & constants.O_APPEND).toBe(constants.O_APPEND);
  });

  it('rejects the appends of a group whose synced write fails, and every later append, with one JournalWriteError', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'journal.jsonl');
    const journal = await BatchJournal.open(path);
    const fileHandle = await fileHandlePrototype(path);
    vi.spyOn(fileHandle, 'write').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }));
    await expect(journal.append(intent(1))).rejects.toMatchObject({
      name: 'JournalWriteError',
      code: 'GW_INTERRUPTED',
      details: { journal: path, reason: 'EIO' },
    });
    await expect(journal.append(intent(2))).rejects.toMatchObject({ name: 'JournalWriteError', details: { reason: 'EIO' } });
    await journal.close();
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('with a file opened without O_DSYNC, syncs after each write, and rejects the appends of a group whose sync fails, and every later append, with one JournalWriteError (a line after a torn one would damage the file)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'journal.jsonl');
    const journal = await BatchJournal.open(path, (p) => open(p, 'a'));
    const fileHandle = await fileHandlePrototype(path);
    vi.spyOn(fileHandle, 'datasync').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(journal.append(intent(1))).rejects.toMatchObject({
      name: 'JournalWriteError',
      code: 'GW_INTERRUPTED',
      details: { journal: path, reason: 'EIO' },
    });
    await expect(journal.append(intent(2))).rejects.toMatchObject({ name: 'JournalWriteError', details: { reason: 'EIO' } });
    await journal.close();
    // The failed group's line is there (its sync failed, not its write); nothing was appended after it.
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { chunk: number }).chunk),
    ).toEqual([1]);
  });

  it('finishes a short write: the rest of the text follows, nothing lost or repeated', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'journal.jsonl');
    const journal = await BatchJournal.open(path);
    const fileHandle = await fileHandlePrototype<{ write(data: unknown, ...rest: unknown[]): Promise<{ bytesWritten: number }> }>(path);
    const realWrite = fileHandle.write;
    // The first write puts only 7 bytes on disk, as a write(2) may.
    vi.spyOn(fileHandle, 'write').mockImplementationOnce(function (this: unknown, data: unknown) {
      return realWrite.call(this, Buffer.from(String(data), 'utf8').subarray(0, 7));
    });
    await journal.append(intent(1), intent(2));
    await journal.append(intent(3));
    await journal.close();
    const chunks = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { chunk: number }).chunk);
    expect(chunks).toEqual([1, 2, 3]);
  });
});
