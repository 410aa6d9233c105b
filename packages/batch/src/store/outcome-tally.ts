import { GW_ERROR_CODES, GwError } from '@gw/types';
import { emptyCounts, type OrderOutcome, type OutcomeCounts } from '../outcome.ts';

/** Input positions below 2^27 (134 million orders, a 16 MB bitmap at most) take a bit; anything else goes to a Set. */
function isBitIndex(index: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < 2 ** 27;
}

/**
 * Gives every input order exactly one final outcome: a second outcome for the same order is a bug in the runner and
 * stops the batch rather than being recorded. Outcomes are kept in memory unless the caller streams them elsewhere.
 */
export class OutcomeTally {
  readonly counts: OutcomeCounts = emptyCounts();
  /** One bit per input index, set once the order has its outcome: indexes are dense from 0, so a bitmap, not a Set. */
  #decided = new Uint8Array(1024);
  /** Indexes no input position can have (a damaged journal's), kept apart so the bitmap never grows for them. */
  readonly #others = new Set<number>();
  #size = 0;
  readonly #kept: OrderOutcome[] | null;
  readonly #listener: ((outcome: OrderOutcome) => void) | undefined;

  constructor(options: { keepOutcomes: boolean; onOutcome?: (outcome: OrderOutcome) => void }) {
    this.#kept = options.keepOutcomes ? [] : null;
    this.#listener = options.onOutcome;
  }

  /** True when the order at `index` already has its outcome. */
  has(index: number): boolean {
    if (!isBitIndex(index)) return this.#others.has(index);
    const byte = index >>> 3;
    return byte < this.#decided.length && (this.#decided[byte]! & (1 << (index & 7))) !== 0;
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
    const { index } = outcome;
    if (this.has(index)) {
      throw new GwError(GW_ERROR_CODES.config, `order #${outcome.index} was given a second outcome (${outcome.kind}); the batch stops rather than record it`, {
        index: outcome.index,
      });
    }
    this.#size += 1;
    this.counts[outcome.kind] += 1;
    this.#kept?.push(outcome);
    if (!isBitIndex(index)) {
      this.#others.add(index);
      return;
    }
    const byte = index >>> 3;
    if (byte >= this.#decided.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.#decided.length * 2));
      grown.set(this.#decided);
      this.#decided = grown;
    }
    this.#decided[byte]! |= 1 << (index & 7);
  }

  /** Orders settled so far. */
  get size(): number {
    return this.#size;
  }

  /** The kept outcomes in input order (empty when outcomes are not kept). */
  outcomes(): OrderOutcome[] {
    return [...(this.#kept ?? [])].sort((a, b) => a.index - b.index);
  }
}
