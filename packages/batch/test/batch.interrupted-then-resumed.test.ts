import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchInterruptedError, resumeBatch, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('a batch stopped by its signal and resumed', () => {
  it('sends no new request once stopped, journals the chunks written ahead as unsent, and resume sends them without a query', async () => {
    const orders = await authorisedOrders(sandbox, 600, '20.00');
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-interrupt-')), 'journal.jsonl');
    const stop = new AbortController();
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 20 } });
    const settings = { client: clientFor(sandbox), concurrency: 2, reconcile: sandboxReconciler, journal };
    const stopped = runBatch({ ...settings, operation: 'capture', orders, signal: stop.signal, onProgress: (p) => p.done >= 100 && stop.abort() });
    await expect(stopped).rejects.toBeInstanceOf(BatchInterruptedError);
    sandbox.faults.setRules({});

    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; chunk?: number; outcomes?: unknown[]; unsent?: number[] });
    const sent = sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;
    const intents = lines.filter((l) => l.type === 'intent');
    const unsent = lines.filter((l) => l.unsent !== undefined);
    // The window's two requests finished; the two chunks whose intents were written ahead were never sent.
    expect(unsent.length).toBeGreaterThan(0);
    expect(intents.length).toBe(sent + unsent.length);
    expect(unsent.flatMap((l) => l.unsent!)).toHaveLength(unsent.length * 50);
    for (const line of unsent) expect(lines.some((l) => l.type === 'outcomes' && l.chunk === line.chunk && l.unsent === undefined)).toBe(false);

    const queriesBefore = sandbox.state.requests.filter((r) => r.path === '/v1/retrievalTrans').length;
    const resumed = await resumeBatch({ ...settings, orders });
    expect(sandbox.state.requests.filter((r) => r.path === '/v1/retrievalTrans').length).toBe(queriesBefore);
    expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
    expect(resumed.counts.succeeded).toBe(600);
    const applied = sandbox.state.appliedCounts('capture');
    for (const order of orders) expect(applied.get(order.transaction_id), order.transaction_id).toBe(1);
  });
});
