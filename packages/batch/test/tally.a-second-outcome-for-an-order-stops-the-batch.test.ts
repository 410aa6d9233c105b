import { describe, expect, it } from 'vitest';
import { GwError } from '@gw/types';
import { OutcomeTally } from '../src/store/outcome-tally.ts';
import type { OrderOutcome } from '../src/outcome.ts';

const outcome = (index: number, kind: OrderOutcome['kind'] = 'succeeded'): OrderOutcome => ({ index, kind, order: { transaction_id: `T${index}` } });

describe('the outcome tally gives every order exactly one outcome', () => {
  it('counts each order once across a batch far larger than its first bitmap, in any order', () => {
    const tally = new OutcomeTally({ keepOutcomes: false });
    const indexes = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 20_000); // every index once, shuffled
    for (const index of indexes) tally.decide(outcome(index, index % 3 === 0 ? 'failed' : 'succeeded'));
    expect(tally.size).toBe(20_000);
    expect(tally.counts).toEqual({ succeeded: 13_333, failed: 6_667, rejected: 0, unknown: 0 });
    expect([0, 8191, 19_999].every((i) => tally.has(i))).toBe(true);
    expect(tally.has(20_000)).toBe(false);
  });

  it('stops the batch on a second outcome for the same order instead of recording it', () => {
    const tally = new OutcomeTally({ keepOutcomes: true });
    tally.decide(outcome(5));
    tally.decide(outcome(4096));
    const second = (() => {
      try {
        tally.decide(outcome(4096, 'failed'));
      } catch (error) {
        return error;
      }
    })();
    expect(second).toBeInstanceOf(GwError);
    expect((second as GwError).message).toContain('order #4096 was given a second outcome (failed)');
    expect(tally.counts).toEqual({ succeeded: 2, failed: 0, rejected: 0, unknown: 0 });
    expect(tally.outcomes().map((o) => o.index)).toEqual([5, 4096]);
  });

  it('keeps an index no input position has (a damaged journal) apart, without growing its bitmap, and still once', () => {
    const tally = new OutcomeTally({ keepOutcomes: false });
    for (const index of [-1, 2 ** 40, 1.5]) {
      tally.restore(outcome(index));
      expect(tally.has(index)).toBe(true);
      expect(() => tally.restore(outcome(index))).toThrow(/second outcome/);
    }
    expect(tally.has(0)).toBe(false);
    expect(tally.size).toBe(3);
  });
});
