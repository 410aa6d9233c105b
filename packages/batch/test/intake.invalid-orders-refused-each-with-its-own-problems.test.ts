import { startSandbox } from '@gw/sandbox';
import { RecordValidator } from '@gw/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

/** The problems a check of the order alone finds, relative to the order (what a refusal must list). */
function problemsAlone(order: Record<string, unknown>) {
  return new RecordValidator().requestProblems('capture', { capture_orders: [order] }).map((p) => ({
    ...p,
    pointer: p.pointer.replace(/^\/capture_orders\/0/, ''),
    field: p.field.replace(/^capture_orders\[0\]\.?/, ''),
  }));
}

describe('invalid orders among valid ones (members checked a chunk at a time)', () => {
  it('each invalid order is refused with exactly the problems a check of it alone finds; every valid one is sent, in full chunks', async () => {
    const valid = await authorisedOrders(sandbox, 120);
    const invalid: Record<string, unknown>[] = [
      { transaction_id: 'T-bad-1', order_no: 'X1', currency: 'USD', amount: 'ten' },
      { transaction_id: 'T-bad-2', order_no: 'X2', currency: 'USD', amount: '1.00', amonut: '1.00' },
      { transaction_id: 'T-bad-3', order_no: 'X3', currency: 42, amount: '1.00.0', note: 'x' },
    ];
    // Invalid orders at places that fall in the first chunk, the second and at the very end.
    const orders: Record<string, unknown>[] = [...valid.slice(0, 10), invalid[0]!, ...valid.slice(10, 70), invalid[1]!, ...valid.slice(70), invalid[2]!];
    const sizes: number[] = [];
    const client = clientFor(sandbox, {
      hooks: { onRequest: (e: { record: { capture_orders?: unknown[] } }) => sizes.push(e.record.capture_orders?.length ?? 0) },
    });
    const result = await runBatch({ client, operation: 'capture', orders, concurrency: 2 });

    expect(indexesOf(result.outcomes)).toEqual(orders.map((_, i) => i));
    const rejected = result.outcomes.filter((o) => o.kind === 'rejected');
    expect(rejected.map((o) => o.index)).toEqual([10, 71, 122]);
    for (const outcome of rejected) {
      const expected = problemsAlone(orders[outcome.index]!);
      expect(expected.length).toBeGreaterThan(0);
      expect(outcome.kind === 'rejected' && outcome.problems).toEqual(expected);
      expect(outcome.kind === 'rejected' && outcome.reason).toMatch(new RegExp(`^${expected.length} problem\\(s\\): `));
    }
    expect(result.counts).toMatchObject({ succeeded: 120, rejected: 3 });
    // The 120 valid orders go out as 50 + 50 + 20: a refused order leaves no gap in its chunk.
    expect(sizes.sort((a, b) => b - a)).toEqual([50, 50, 20]);
  });
});
