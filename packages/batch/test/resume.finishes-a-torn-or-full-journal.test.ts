// A journal cut mid-line (a crash, a full disk) can be resumed, again and again; one damaged before its last
// line is refused with a typed error saying where; a full disk stops the batch with a typed error, and once space is
// freed the batch is resumed to the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomesFromJournal, resumeBatch, runBatch, writeResultsCsv, type JournalFile, type OpenJournalFile } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const at = '2026-11-23T00:00:00.000Z';
const line = (entry: object): string => `${JSON.stringify(entry)}\n`;

function journalWith(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-torn-')), 'journal.jsonl');
  writeFileSync(path, text);
  return path;
}

function everyLineParses(path: string): void {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  for (const l of text.trimEnd().split('\n')) expect(() => JSON.parse(l), l.slice(0, 80)).not.toThrow();
}

describe('a journal with a torn last line', () => {
  it('a torn intent (never synced, so never sent) is cut: the first resume sends its order, a second resume finds nothing to do', async () => {
    const [first, second] = await authorisedOrders(sandbox, 2, '21.00');
    const torn = line({ type: 'intent', chunk: 2, orders: [{ index: 1, order: second }], at }).slice(0, 45);
    const journal = journalWith(
      line({ type: 'start', version: 1, operation: 'capture', limit: 50, at }) +
        line({ type: 'intent', chunk: 1, orders: [{ index: 0, order: first }], at }) +
        line({
          type: 'outcomes',
          chunk: 1,
          outcomes: [{ index: 0, kind: 'succeeded', result: { transaction_id: first!.transaction_id, capture_status: '1' } }],
          at,
        }) +
        torn,
    );
    const settings = { client: clientFor(sandbox), journal, orders: [first!, second!], reconcile: sandboxReconciler };
    const once = await resumeBatch(settings);
    expect(once.counts).toMatchObject({ succeeded: 2, unknown: 0, failed: 0 });
    everyLineParses(journal);
    const twice = await resumeBatch(settings);
    expect(twice.counts).toMatchObject({ succeeded: 2, unknown: 0, failed: 0 });
    everyLineParses(journal);
    expect(indexesOf(await outcomesFromJournal(journal))).toEqual([0, 1]);
    expect(sandbox.state.appliedCounts('capture').get(second!.transaction_id)).toBe(1);
  });

  it('a torn outcomes line leaves its chunk in doubt: settled by query (applied once), and resumable again', async () => {
    const [order] = await authorisedOrders(sandbox, 1, '22.00');
    // The capture went out and was applied; the crash tore the line recording its answer.
    await clientFor(sandbox).capture({ capture_orders: [order!] });
    const journal = journalWith(
      line({ type: 'start', version: 1, operation: 'capture', limit: 50, at }) +
        line({ type: 'intent', chunk: 1, orders: [{ index: 0, order }], at }) +
        line({ type: 'outcomes', chunk: 1, outcomes: [{ index: 0, kind: 'succeeded' }], at }).slice(0, 50),
    );
    const settings = { client: clientFor(sandbox), journal, orders: [order!], reconcile: sandboxReconciler };
    const once = await resumeBatch(settings);
    expect(once.outcomes).toEqual([expect.objectContaining({ kind: 'succeeded', reconciled: true })]);
    const twice = await resumeBatch(settings);
    expect(twice.outcomes).toEqual([expect.objectContaining({ kind: 'succeeded', reconciled: true })]);
    everyLineParses(journal);
    expect(sandbox.state.appliedCounts('capture').get(order!.transaction_id)).toBe(1);
  });
});

describe('a journal damaged before its last line', () => {
  for (const [name, damaged] of [
    ['a line that is not JSON', '{"type":"intent","chunk":1,"ord\n'],
    ['a line that is JSON but no entry', '42\n'],
  ] as const) {
    it(`${name}: resume and export refuse it with a JournalDamagedError naming the line and byte`, async () => {
      const [order] = await authorisedOrders(sandbox, 1, '23.00');
      const start = line({ type: 'start', version: 1, operation: 'capture', limit: 50, at });
      const journal = journalWith(start + damaged + line({ type: 'intent', chunk: 1, orders: [{ index: 0, order }], at }));
      const expected = { name: 'JournalDamagedError', code: 'GW_DECODE', details: { journal, line: 2, byte: Buffer.byteLength(start) } };
      const before = sandbox.state.requestCount;
      const resumed = resumeBatch({ client: clientFor(sandbox), journal, orders: [order!], reconcile: sandboxReconciler });
      await expect(resumed).rejects.toMatchObject(expected);
      await expect(resumed).rejects.toThrow(/line 2 .*restore it from a backup/i);
      await expect(outcomesFromJournal(journal)).rejects.toMatchObject(expected);
      expect(sandbox.state.requestCount).toBe(before);
    });
  }
});

/** A small disk: a real 256 KiB tmpfs where mount is allowed, else a file layer that runs out of space as one would. */
async function smallDisk(): Promise<{ dir: string; fill(freeBytes: number): void; free(): void; openFile?: OpenJournalFile; close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-enospc-'));
  try {
    // GW_TEST_NO_MOUNT=1 runs the fallback where mount is allowed, to check it.
    if (process.env.GW_TEST_NO_MOUNT) throw new Error('mount not wanted');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    const filler = join(dir, 'filler');
    return {
      dir,
      fill(freeBytes) {
        const { bavail, bsize } = statfsSync(dir);
        writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - freeBytes)));
      },
      free: () => unlinkSync(filler),
      close: () => execFileSync('umount', [dir]),
    };
  } catch {
    // No mount here (not root, a container without CAP_SYS_ADMIN): the same failure through the journal's file layer,
    // which writes what fits (a short write, as a full disk does) and then fails with ENOSPC.
    let room = Infinity;
    const openFile: OpenJournalFile = async (path) => {
      const real = await open(path, 'a');
      const write = async (data: string | Uint8Array, ...rest: unknown[]) => {
        const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
        const [offset = 0, length = bytes.length - (offset as number)] = typeof data === 'string' ? [] : (rest as number[]);
        const wanted = bytes.subarray(offset as number, (offset as number) + (length as number));
        if (room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
        const fits = wanted.subarray(0, Math.min(wanted.length, room));
        room -= fits.length;
        const { bytesWritten } = await real.write(fits);
        return { bytesWritten, buffer: data };
      };
      return { write, datasync: () => real.datasync(), close: () => real.close() } as unknown as JournalFile;
    };
    return { dir, fill: (freeBytes) => void (room = freeBytes), free: () => void (room = Infinity), openFile, close: () => rmSync(dir, { recursive: true }) };
  }
}

describe('a full disk mid-batch', () => {
  // The tmpfs holds 256 KiB: the whole journal of 400 orders, not of many more.
  const ORDERS = 400;
  it('stops the batch with a JournalWriteError (ENOSPC); with space freed, resume finishes and the results are written', async () => {
    const disk = await smallDisk();
    try {
      const orders = await authorisedOrders(sandbox, ORDERS, '24.00');
      const journal = join(disk.dir, 'journal.jsonl');
      // Room for the start line and the first group of intents (8 chunks of 50, written ahead), not for the whole batch,
      // plus a page for the journal's lock file.
      disk.fill(68 * 1024);
      const settings = { client: clientFor(sandbox), reconcile: sandboxReconciler, journal, orders, concurrency: 2, journalFile: disk.openFile };
      // Answers slow enough that the failed write stops the batch before its last chunks go out, however it is scheduled.
      sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
      const stopped = await runBatch({ ...settings, operation: 'capture' }).then(
        () => null,
        (error: unknown) => error,
      );
      sandbox.faults.setRules({});
      expect(stopped).toMatchObject({ name: 'JournalWriteError', code: 'GW_INTERRUPTED', details: { journal, reason: 'ENOSPC' } });
      expect((stopped as Error).message).toMatch(/free space on its disk, then finish the batch with resumeBatch/);
      const applied = () => orders.filter((o) => sandbox.state.appliedCounts('capture').get(o.transaction_id) === 1).length;
      const capturedBeforeTheDiskFilled = applied();
      expect(capturedBeforeTheDiskFilled).toBeGreaterThan(0);
      expect(capturedBeforeTheDiskFilled).toBeLessThan(ORDERS);

      disk.free();
      const result = await resumeBatch(settings);
      expect(result.counts).toEqual({ succeeded: ORDERS, failed: 0, rejected: 0, unknown: 0 });
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
      everyLineParses(journal);
      const results = join(disk.dir, 'results.csv');
      await writeResultsCsv(await outcomesFromJournal(journal), results);
      const rows = readFileSync(results, 'utf8').trimEnd().split('\n');
      expect(rows).toHaveLength(ORDERS + 1);
      expect(rows.slice(1).every((r) => r.includes(',succeeded,'))).toBe(true);
    } finally {
      disk.close();
    }
  }, 60_000);
});

describe('a journal whose only line is torn', () => {
  it('is refused with a JournalMismatchError saying the batch sent nothing and can be run again', async () => {
    const journal = journalWith(line({ type: 'start', version: 1, operation: 'capture', limit: 50, at }).slice(0, 30));
    const resumed = resumeBatch({ client: clientFor(sandbox), journal, orders: [] });
    await expect(resumed).rejects.toMatchObject({ name: 'JournalMismatchError', code: 'GW_CONFIG' });
    await expect(resumed).rejects.toThrow(/only line is torn: the batch stopped before it sent anything/);
  });
});
