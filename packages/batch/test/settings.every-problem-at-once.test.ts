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

describe('a ledger lease that does not outlast a request and its send margin', () => {
  const ledger = 'postgres://gw:secret@127.0.0.1:1/none';

  it('is refused with every other problem, naming the three values and the way out, before connecting', async () => {
    const error = await runBatch({ client, operation: 'refund', orders: [], ledger, leaseMs: 3000, timeoutMs: 2800, sendMarginMs: 500, concurrency: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchSettingsError);
    const problems = (error as BatchSettingsError).details.problems;
    expect(problems).toHaveLength(2);
    expect(problems[1]).toBe('leaseMs (3000) must be longer than timeoutMs (2800) + sendMarginMs (500) = 3300: a chunk is sent only with sendMarginMs of its lease left and its request may run timeoutMs after that; raise leaseMs or lower timeoutMs');
  });

  it('counts the defaults it was not given (timeout 30 s + margin 5 s), and a lease past them is taken', async () => {
    await expect(runBatch({ client, operation: 'capture', orders: [], ledger, leaseMs: 3000 })).rejects.toThrow('leaseMs (3000) must be longer than timeoutMs (30000, the default) + sendMarginMs (5000, the default) = 35000');
    await expect(runBatch({ client, operation: 'capture', orders: [], ledger, leaseMs: 3000, timeoutMs: 0.5, sendMarginMs: -1 })).rejects.toThrow(/timeoutMs must be a whole number of milliseconds of at least 1, not 0\.5\n?.*/);
    // Valid settings go on to connect (and fail there: nothing listens on port 1), so no BatchSettingsError.
    const error = await runBatch({ client, operation: 'capture', orders: [], ledger, leaseMs: 3000, timeoutMs: 2000, sendMarginMs: 500, ledgerOutageMs: 0 }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(BatchSettingsError);
  });
});
