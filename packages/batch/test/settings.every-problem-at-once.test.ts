import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BATCH_SETTINGS, BatchSettingsError, resolveBatchSettings, resumeBatch, runBatch, runBatchWorker, type BatchClient } from '../src/index.ts';
import { settingsTableMarkdown } from '../src/settings/settings-table.ts';

const client = {
  capture: async () => ({}),
  cancel: async () => ({}),
  review: async () => ({}),
  refund: async () => ({}),
  query: async () => ({}),
} as unknown as BatchClient;

describe('settings a batch cannot run with', () => {
  it('are refused with one BatchSettingsError naming every problem, before the journal is created or anything sent', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-settings-')), 'journal.jsonl');
    const error = await runBatch({
      client,
      operation: 'capture',
      orders: 42 as never,
      concurrency: 0,
      maxResends: -1,
      total: 1.5,
      journal,
      onProgress: 'log' as never,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchSettingsError);
    expect(error).toMatchObject({ code: 'GW_CONFIG' });
    const problems = (error as BatchSettingsError).details.problems;
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(
      /orders must be an iterable.*\n.*concurrency must be a whole number of at least 1, not 0\n.*maxResends .* not -1\n.*total .* not 1\.5\n.*onProgress must be a function/,
    );
    expect(existsSync(journal)).toBe(false);
  });

  it('include NaN concurrency (which would never send), an unknown operation, a client without the method, and resume without a journal', async () => {
    await expect(runBatch({ client, operation: 'capture', orders: [], concurrency: Number.NaN })).rejects.toThrow(
      /concurrency must be a whole number of at least 1, not NaN/,
    );
    await expect(runBatch({ client, operation: 'authorise' as never, orders: [] })).rejects.toThrow(
      /operation must be one of query, capture, review, cancel, refund, not "authorise"/,
    );
    await expect(runBatch({ client: { query: async () => ({}) } as never, operation: 'refund', orders: [] })).rejects.toThrow(/client has no refund method/);
    await expect(resumeBatch({ client, journal: undefined as never, orders: [] })).rejects.toThrow(/journal must be the interrupted batch's journal file/);
  });
});

describe('a ledger lease that does not outlast a request and its send margin', () => {
  const ledger = 'postgres://gw:secret@127.0.0.1:1/none';

  it('is refused with every other problem, naming the three values and the way out, before connecting', async () => {
    const error = await runBatch({ client, operation: 'refund', orders: [], ledger, leaseMs: 3000, timeoutMs: 2800, sendMarginMs: 500, concurrency: 0 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BatchSettingsError);
    const problems = (error as BatchSettingsError).details.problems;
    expect(problems).toHaveLength(2);
    expect(problems[1]).toBe(
      'leaseMs (3000) must be longer than timeoutMs (2800) + sendMarginMs (500) = 3300: a chunk is sent only with sendMarginMs of its lease left and its request may run timeoutMs after that; raise leaseMs or lower timeoutMs',
    );
  });

  it('counts the defaults it was not given (timeout 30 s + margin 5 s), and a lease past them is taken', async () => {
    await expect(runBatch({ client, operation: 'capture', orders: [], ledger, leaseMs: 3000 })).rejects.toThrow(
      'leaseMs (3000) must be longer than timeoutMs (30000, the default) + sendMarginMs (5000, the default) = 35000',
    );
    await expect(runBatch({ client, operation: 'capture', orders: [], ledger, leaseMs: 3000, timeoutMs: 0.5, sendMarginMs: -1 })).rejects.toThrow(
      /timeoutMs must be a whole number of milliseconds of at least 1, not 0\.5\n?.*/,
    );
    // Valid settings go on to connect (and fail there: nothing listens on port 1), so no BatchSettingsError.
    const error = await runBatch({
      client,
      operation: 'capture',
      orders: [],
      ledger,
      leaseMs: 3000,
      timeoutMs: 2000,
      sendMarginMs: 500,
      ledgerOutageMs: 0,
    }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(BatchSettingsError);
  });
});

describe('options that do not apply where they are given', () => {
  it('are refused with the rest, not silently unused: ledger options with a journal, a worker option elsewhere, orders to a worker', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-settings-')), 'journal.jsonl');
    const error = await runBatch({
      client,
      operation: 'capture',
      orders: [],
      journal,
      leaseMs: 90_000,
      pollMs: 50,
      batch: 'b1',
      holder: 'me',
      batchWaitMs: 10,
      concurrency: 0,
    } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchSettingsError);
    expect((error as BatchSettingsError).details.problems).toEqual([
      'concurrency must be a whole number of at least 1, not 0',
      "leaseMs applies to a batch kept in a ledger only: a journal's run is its only holder",
      "pollMs applies to a batch kept in a ledger only: a journal's run is its only holder",
      'batchWaitMs applies to runBatchWorker only, not runBatch',
      'batch applies to a batch kept in a ledger only',
      'holder applies to a batch kept in a ledger only',
    ]);
    expect(existsSync(journal)).toBe(false);
    await expect(
      runBatch({ client, operation: 'capture', orders: [], ledger: 'postgres://h/db', journal, journalFile: async () => ({}) as never } as never),
    ).rejects.toThrow(/journal and ledger cannot both be given/);
    await expect(runBatchWorker({ client, ledger: 'postgres://h/db', batch: 'b1', orders: [], total: 3 } as never)).rejects.toThrow(
      /orders are not given to runBatchWorker.*total is not given to runBatchWorker/,
    );
    await expect(runBatchWorker({ client, batch: 'b1' } as never)).rejects.toThrow(/a worker needs the ledger/);
  });

  it('are filled from one table when not given, and the README lists that table', () => {
    const resolved = resolveBatchSettings({ client, operation: 'refund', orders: [1, 2], ledger: 'postgres://h/db' }, 'run');
    for (const setting of BATCH_SETTINGS) {
      const value = setting.name in resolved ? resolved[setting.name as keyof typeof resolved] : (resolved.store as Record<string, unknown>)[setting.name];
      expect(value, setting.name).toBe(setting.default);
    }
    expect(resolved).toMatchObject({ total: 2, keepOutcomes: true, store: { kind: 'ledger', batch: expect.stringMatching(/^batch-/) } });
    const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
    const table = /<!-- batch-settings:start -->\n([\s\S]*?)\n<!-- batch-settings:end -->/.exec(readme)?.[1];
    expect(table, 'the README table between its batch-settings markers').toBe(settingsTableMarkdown());
  });
});
