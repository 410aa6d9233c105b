import { startSandbox, sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';

const COUNT = Number(process.env.GW_BATCH_FAULT_ORDERS ?? 10_000);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11 });
});
afterAll(() => sandbox.stop());

describe(`${COUNT} captures while the sandbox injects 10% mixed faults`, () => {
  it('ends every order with exactly one outcome and never captures an order twice', async () => {
    const orders = await authorisedOrders(sandbox, COUNT, '12.00');
    // 10% of capture requests fail: resets before and after processing, 5xx; plus latency. Queries fault too.
    sandbox.faults.setRules({
      '/v1/capture': { resetBefore: 0.035, resetAfter: 0.035, http5xx: 0.03, latencyMs: [0, 4] },
      '/v1/retrievalTrans': { resetBefore: 0.03, http5xx: 0.03, latencyMs: [0, 4] },
    });
    const result = await runBatch({
      client: clientFor(sandbox, { retry: { attempts: 4, baseDelayMs: 5, maxDelayMs: 50 } }),
      operation: 'capture',
      orders,
      concurrency: 8,
      reconcile: sandboxReconciler,
    });
    sandbox.faults.setRules({});
    expect(indexesOf(result.outcomes)).toEqual(orders.map((_, i) => i));
    const faults = sandbox.state.requests.filter((r) => r.path === '/v1/capture' && r.outcome !== 'ok').length;
    expect(faults).toBeGreaterThan(0);
    const applied = sandbox.state.appliedCounts('capture');
    const doubled = [...applied.values()].filter((n) => n > 1).length;
    expect(doubled).toBe(0);
    // What the batch reports agrees with what the gateway did.
    for (const outcome of result.outcomes) {
      const id = String(outcome.order.transaction_id);
      if (outcome.kind === 'succeeded') expect(applied.get(id), id).toBe(1);
      if (outcome.kind === 'failed') expect(applied.get(id) ?? 0, id).toBe(0);
    }
    console.log(
      `${COUNT} captures under faults: ${JSON.stringify(result.counts)}, ${faults} faulted capture requests seen, ${result.outcomes.filter((o) => o.reconciled).length} settled by query`,
    );
    // An order whose every allowed send met a fault, and that a query then showed as not applied, is failed and safe to
    // send again (never applied: checked above); nothing is rejected.
    expect(result.counts.rejected).toBe(0);
    for (const outcome of result.outcomes) if (outcome.kind === 'failed') expect(outcome.reason).toMatch(/safe to send again/);
    expect(sandbox.state.invariantViolations()).toEqual([]);
  }, 240_000);
});
