import { describe, expect, it } from 'vitest';
import { LedgerClock } from '../src/postgres/ledger-clock.ts';

// The database's clock runs 5,000 ms behind this process's; answers take 2 ms on their way, one is held up 400 ms.
const OFFSET = 5_000;

describe("the ledger's clock on this process's", () => {
  it("places a database time at its moment here plus at most the quickest answer's way, however late other answers came", () => {
    const clock = new LedgerClock();
    expect(clock.local(1_000)).toBeNull();
    const made = [10_000, 10_050, 10_100, 10_150];
    clock.observe(made[0]!, made[0]! + OFFSET + 2);
    clock.observe(made[1]!, made[1]! + OFFSET + 400); // held up: a paused process, a loaded host
    clock.observe(made[2]!, made[2]! + OFFSET + 7);
    clock.observe(made[3]!, made[3]! + OFFSET + 2);
    // 20,000 in the database's time is 25,002 here (epoch ms): never earlier than 25,000, never later for the held-up answer.
    expect(clock.local(20_000)! + performance.timeOrigin).toBeCloseTo(20_000 + OFFSET + 2, 6);
  });

  it('follows the database clock when it moves ahead (a newer answer shows a smaller offset)', () => {
    const clock = new LedgerClock();
    clock.observe(10_000, 10_000 + OFFSET + 3);
    clock.observe(20_000, 20_000 + OFFSET - 100 + 3); // the database's clock stepped 100 ms ahead
    expect(clock.local(30_000)! + performance.timeOrigin).toBeCloseTo(30_000 + OFFSET - 100 + 3, 6);
  });

  it('ignores an answer without a time', () => {
    const clock = new LedgerClock();
    clock.observe(Number.NaN, 1);
    expect(clock.local(1)).toBeNull();
  });
});
