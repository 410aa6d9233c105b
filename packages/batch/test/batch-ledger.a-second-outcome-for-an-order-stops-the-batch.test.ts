import { describe, expect, it } from 'vitest';
import { GwError } from '@gw/types';
import { BatchLedger } from '../src/batch-ledger.ts';
import type { OrderOutcome } from '../src/outcome.ts';

const outcome = (index: number, kind: OrderOutcome['kind'] = 'succeeded'): OrderOutcome => ({ index, kind, order: { transaction_id: `T${index}` } });

describe('the batch ledger gives every order exactly one outcome', () => {
  it('counts each order once across a batch far larger than its first bitmap, in any order', () => {
    const ledger = new BatchLedger({ keepOutcomes: false });
    const indexes = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 20_000); // every index once, shuffled
    for (const index of indexes) ledger.decide(outcome(index, index % 3 === 0 ? 'failed' : 'succeeded'));
    expect(ledger.size).toBe(20_000);
    expect(ledger.counts).toEqual({ succeeded: 13_333, failed: 6_667, rejected: 0, unknown: 0 });
    expect([0, 8191, 19_999].every((i) => ledger.has(i))).toBe(true);
    expect(ledger.has(20_000)).toBe(false);
  });

  it('stops the batch on a second outcome for the same order instead of recording it', () => {
    const ledger = new BatchLedger({ keepOutcomes: true });
    ledger.decide(outcome(5));
    ledger.decide(outcome(4096));
    const second = (() => {
      try {
        ledger.decide(outcome(4096, 'failed'));
      } catch (error) {
        return error;
      }
    })();
    expect(second).toBeInstanceOf(GwError);
    expect((second as GwError).message).toContain('order #4096 was given a second outcome (failed)');
    expect(ledger.counts).toEqual({ succeeded: 2, failed: 0, rejected: 0, unknown: 0 });
    expect(ledger.outcomes().map((o) => o.index)).toEqual([5, 4096]);
  });

  it('keeps an index no input position has (a damaged journal) apart, without growing its bitmap, and still once', () => {
    const ledger = new BatchLedger({ keepOutcomes: false });
    for (const index of [-1, 2 ** 40, 1.5]) {
      ledger.restore(outcome(index));
      expect(ledger.has(index)).toBe(true);
      expect(() => ledger.restore(outcome(index))).toThrow(/second outcome/);
    }
    expect(ledger.has(0)).toBe(false);
    expect(ledger.size).toBe(3);
  });
});
