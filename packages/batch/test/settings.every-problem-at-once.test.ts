import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchSettingsError, resumeBatch, runBatch, type BatchClient } from '../src/index.ts';

const client = { capture: async () => ({}), cancel: async () => ({}), review: async () => ({}), refund: async () => ({}), query: async () => ({}) } as unknown as BatchClient;

describe('settings a batch cannot run with', () => {
  it('are refused with one BatchSettingsError naming every problem, before the journal is created or anything sent', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-settings-')), 'journal.jsonl');
    const error = await runBatch({ client, operation: 'capture', orders: 42 as never, concurrency: 0, maxResends: -1, total: 1.5, journal, onProgress: 'log' as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchSettingsError);
    expect(error).toMatchObject({ code: 'GW_CONFIG' });
    const problems = (error as BatchSettingsError).details.problems;
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/orders must be an iterable.*\n.*concurrency must be a whole number of at least 1, not 0\n.*maxResends .* not -1\n.*total .* not 1\.5\n.*onProgress must be a function/);
    expect(existsSync(journal)).toBe(false);
  });

  it('include NaN concurrency (which would never send), an unknown operation, a client without the method, and resume without a journal', async () => {
    await expect(runBatch({ client, operation: 'capture', orders: [], concurrency: Number.NaN })).rejects.toThrow(/concurrency must be a whole number of at least 1, not NaN/);
    await expect(runBatch({ client, operation: 'authorise' as never, orders: [] })).rejects.toThrow(/operation must be one of query, capture, review, cancel, refund, not "authorise"/);
    await expect(runBatch({ client: { query: async () => ({}) } as never, operation: 'refund', orders: [] })).rejects.toThrow(/client has no refund method/);
    await expect(resumeBatch({ client, journal: undefined as never, orders: [] })).rejects.toThrow(/journal must be the interrupted batch's journal file/);
  });
});
