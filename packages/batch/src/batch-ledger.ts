import { GW_ERROR_CODES, GwError } from '@gw/types';
import { emptyCounts, type OrderOutcome, type OutcomeCounts } from './outcome.ts';

/**
 * Gives every input order exactly one final outcome: a second outcome for the same order is a bug in the runner and
 * stops the batch rather than being recorded. Outcomes are kept in memory unless the caller streams them elsewhere.
 */
export class BatchLedger {
  readonly counts: OutcomeCounts = emptyCounts();
  readonly #decided = new Set<number>();
  readonly #kept: OrderOutcome[] | null;
  readonly #listener: ((outcome: OrderOutcome) => void) | undefined;

  constructor(options: { keepOutcomes: boolean; onOutcome?: (outcome: OrderOutcome) => void }) {
    this.#kept = options.keepOutcomes ? [] : null;
    this.#listener = options.onOutcome;
  }

  /** True when the order at `index` already has its outcome. */
  has(index: number): boolean {
    return this.#decided.has(index);
  }

  /** Records an outcome read back from a journal (resume): counted, kept, not announced again. */
  restore(outcome: OrderOutcome): void {
    this.#add(outcome);
  }

  /** Records the final outcome of an order. */
  decide(outcome: OrderOutcome): void {
    this.#add(outcome);
    this.#listener?.(outcome);
  }

  #add(outcome: OrderOutcome): void {
    if (this.#decided.has(outcome.index)) {
      throw new GwError(GW_ERROR_CODES.config, `order #${outcome.index} was given a second outcome (${outcome.kind}); the batch stops rather than record it`, {
        index: outcome.index,
      });
    }
    this.#decided.add(outcome.index);
    this.counts[outcome.kind] += 1;
    this.#kept?.push(outcome);
  }

  /** Orders settled so far. */
  get size(): number {
    return this.#decided.size;
  }

  /** The kept outcomes in input order (empty when outcomes are not kept). */
  outcomes(): OrderOutcome[] {
    return [...(this.#kept ?? [])].sort((a, b) => a.index - b.index);
  }
}
