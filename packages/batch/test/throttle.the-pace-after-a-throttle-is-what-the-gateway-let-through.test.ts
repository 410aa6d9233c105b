// After a throttle the batch's pace is 95% of what the gateway let through in the last second: in one process, the
// requests it sent less those throttled; across a ledger's workers, the sum of each one's count, those not heard from
// yet counted as the mean of those that were. A report outside a burst of throttles changes nothing, and a later
// burst starts from its own reports.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import { Pacer } from '../src/runner/pacer.ts';
import { ledgerForFile } from './pg/database.ts';

const TERMS = { leaseMs: 60_000, sendWindowMs: 0 };

let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

/** A sealed ledger batch of `chunks` one-order chunks, each of `holders` holding a chunk of it. */
async function batchHeldBy(id: string, holders: readonly string[]): Promise<void> {
  await ledger.createBatch(id, 'query', 1);
  for (let i = 0; i < holders.length * 2; i += 1) {
    await ledger.intake(id, 'query', [[{ pending: { index: i, order: { order_no: `${id}-${i}` }, resends: 0 }, key: null }]], [], i + 1, i, null);
  }
  await ledger.seal(id, holders.length * 2, null, '');
  for (const holder of holders) expect((await ledger.step(id, holder, TERMS, 1, [])).leased).toHaveLength(1);
}

async function paceOf(id: string): Promise<{ pace: number | null; throttled: number | null }> {
  const status = await ledger.status(id);
  return { pace: status.pace, throttled: status.throttled };
}

describe('the pace after a throttle', () => {
  it('one process: 95% of the requests sent in the last second less those throttled', async () => {
    const pacer = new Pacer({ maxRate: null, maxInFlight: null, maxThrottleWaitMs: 60_000 });
    for (let i = 0; i < 48; i += 1) (await pacer.admit())();
    // 48 sent, the gateway let 40 through: its quota. Each throttle of the burst lowers the estimate.
    for (let i = 0; i < 8; i += 1) expect(pacer.throttled(1_000)).toBe(true);
    expect(pacer.pace).toBeCloseTo(0.95 * 40, 5);
    expect(pacer.throttles).toBe(8);
    expect(pacer.paused).toBe(true);
  });

  it("a ledger: the sum of every worker's count, the workers not heard from yet counted as the mean of those that were", async () => {
    await batchHeldBy('fleet', ['w1', 'w2', 'w3']);
    await ledger.throttle('fleet', 'w1', 1_000, 13);
    // One worker of the three holding leases heard: its count times three.
    expect((await paceOf('fleet')).pace).toBeCloseTo(0.95 * 13 * 3, 5);
    await ledger.reportLetThrough('fleet', 'w2', 14);
    expect((await paceOf('fleet')).pace).toBeCloseTo((0.95 * (13 + 14) * 3) / 2, 5);
    await ledger.reportLetThrough('fleet', 'w3', 12);
    expect((await paceOf('fleet')).pace).toBeCloseTo(0.95 * (13 + 14 + 12), 5);
    // w1 throttled again in the burst: its latest count replaces its first.
    await ledger.throttle('fleet', 'w1', 1_000, 11);
    expect(await paceOf('fleet')).toEqual({ pace: expect.closeTo(0.95 * (11 + 14 + 12), 5), throttled: 2 });
  });

  it('a report outside a burst changes nothing; a later burst counts only its own reports', async () => {
    await batchHeldBy('bursts', ['w1', 'w2']);
    await ledger.throttle('bursts', 'w1', 200, 20);
    await ledger.reportLetThrough('bursts', 'w2', 20);
    expect((await paceOf('bursts')).pace).toBeCloseTo(0.95 * 40, 5);
    await sleep(300);
    const before = (await paceOf('bursts')).pace!;
    await ledger.reportLetThrough('bursts', 'w2', 1);
    expect((await paceOf('bursts')).pace).toBeCloseTo(before, 1);
    // A new burst: w2's report of the last one is not counted; w1 alone, times the two workers holding leases.
    await ledger.throttle('bursts', 'w1', 1_000, 10);
    expect(await paceOf('bursts')).toEqual({ pace: expect.closeTo(0.95 * 10 * 2, 5), throttled: 2 });
  });
});
