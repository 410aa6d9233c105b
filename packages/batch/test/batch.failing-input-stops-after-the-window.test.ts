import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeBatch, runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('an input that fails part way', () => {
  it('stops the batch with its error once the requests in flight are answered and journaled; resume finishes it', async () => {
    const orders = await authorisedOrders(sandbox, 300, '13.00');
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-failing-input-')), 'journal.jsonl');
    async function* breaksAt(count: number) {
      for (let i = 0; i < count; i++) yield orders[i]!;
      throw new Error('line 181: not valid JSON');
    }
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 15 } });
    const settings = { client: clientFor(sandbox), concurrency: 2, reconcile: sandboxReconciler, journal };
    await expect(runBatch({ ...settings, operation: 'capture', orders: breaksAt(180) })).rejects.toThrow('line 181: not valid JSON');
    sandbox.faults.setRules({});

    // Every chunk that went out has its outcomes journaled: nothing is left in doubt by the stop.
    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; chunk?: number });
    const intents = lines.filter((l) => l.type === 'intent').map((l) => l.chunk);
    const settled = new Set(lines.filter((l) => l.type === 'outcomes').map((l) => l.chunk));
    expect(intents.length).toBeGreaterThan(0);
    for (const chunk of intents) expect(settled.has(chunk), `chunk ${chunk}`).toBe(true);

    const queries = () => sandbox.state.requests.filter((r) => r.path === '/v1/retrievalTrans').length;
    const before = queries();
    const resumed = await resumeBatch({ ...settings, orders });
    expect(queries()).toBe(before);
    expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
    expect(resumed.counts.succeeded).toBe(300);
    for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
  }, 30_000);
});
