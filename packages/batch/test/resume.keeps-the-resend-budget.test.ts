import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeBatch } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

/** The crash child's request timeout and margin: a resume after a kill waits them out (the dead holder's requests). */
const AFTER_A_KILL = { timeoutMs: 2000, sendMarginMs: 100 };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('resume counts the sends an order already had', () => {
  it('an order already sent again once, in a chunk written ahead and never sent, is not sent past maxResends after resume', async () => {
    const [order] = await authorisedOrders(sandbox, 1, '17.00');
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-resend-budget-')), 'journal.jsonl');
    const at = '2026-11-23T00:00:00.000Z';
    // The journal of a batch stopped by its signal: chunk 1 held the order's second send (resends 1), written ahead, never sent.
    writeFileSync(
      journal,
      [
        { type: 'start', version: 1, operation: 'capture', limit: 50, at },
        { type: 'intent', chunk: 1, orders: [{ index: 0, order, resends: 1 }], at },
        { type: 'outcomes', chunk: 1, outcomes: [], unsent: [0], at },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    // Its send after resume goes unanswered and is not applied: with maxResends 1 its budget is spent.
    sandbox.faults.inject('/v1/capture', 'reset-before');
    const result = await resumeBatch({ client: clientFor(sandbox), journal, orders: [order!], reconcile: sandboxReconciler, maxResends: 1, ...AFTER_A_KILL });
    expect(result.outcomes).toEqual([expect.objectContaining({ index: 0, kind: 'failed', reason: expect.stringContaining('after 2 sends') })]);
    expect(sandbox.state.requests.filter((r) => r.path === '/v1/capture' && r.outcome === 'reset-before')).toHaveLength(1);
    expect(sandbox.state.appliedCounts('capture').get(order!.transaction_id) ?? 0).toBe(0);
  });
});
