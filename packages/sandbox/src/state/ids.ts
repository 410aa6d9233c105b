import type { SeededRandom } from './random.ts';

function stamp(date: Date, length: 8 | 14): string {
  const iso = date.toISOString(); // 2026-11-22T10:15:30.000Z
  return (iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19)).slice(0, length);
}

/** Issues the sandbox's identifiers: increasing, dated, and reproducible for a given seed and clock. */
export class IdSource {
  #sequence = 0;
  readonly #random: SeededRandom;
  readonly #clock: () => Date;

  constructor(random: SeededRandom, clock: () => Date) {
    this.#random = random;
    this.#clock = clock;
  }

  #next(prefix: string): string {
    this.#sequence += 1;
    return `${prefix}${stamp(this.#clock(), 8)}${String(this.#sequence).padStart(8, '0')}`;
  }

  /** How many ids were issued: what a state file keeps so new ids never repeat after a restart. */
  get sequence(): number {
    return this.#sequence;
  }

  /** Continues the sequence from a state file. */
  restoreSequence(sequence: number): void {
    this.#sequence = Math.max(this.#sequence, sequence);
  }

  /** A payment transaction id, e.g. `T2026112200000001`. */
  transactionId(): string {
    return this.#next('T');
  }

  /** A payout transaction id. */
  payoutId(): string {
    return this.#next('P');
  }

  /** A payer id of a payout. */
  payerId(): string {
    return this.#next('PY');
  }

  /** A recurring (subscription) id. */
  recurringId(): string {
    return this.#next('R');
  }

  /** A refund reference. */
  refundReference(): string {
    return this.#next('RF');
  }

  /** A short payout reference: date in eight digits, dash, six characters (seed 2.8). */
  shortReference(): string {
    return `${stamp(this.#clock(), 8)}-${this.#random.text(6)}`;
  }
}

/** Fourteen digits: year, month, day, hour, minute, second (seed 2.5 `transaction_date`). */
export function transactionDate(date: Date): string {
  return stamp(date, 14);
}

/** ISO 8601 with a numeric offset (seed 2.8 `created_at`). */
export function isoWithOffset(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** `YYYY-MM-DD HH:MM:SS` (the deduction time "has date and time of day", seed 2.4). */
export function dateTimeText(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
