import { createHash, type Hash } from 'node:crypto';
import type { Order, PendingOrder } from '../send/pending-order.ts';

/**
 * A run of input orders as a batch read them, `[from, upto)` by input index, and the SHA-256 of their canonical texts
 * (`canonicalOrderText`, each line prefixed with its index): one is recorded with each intake write, so the input a
 * batch took in is fixed from its start, in whatever store keeps it.
 */
export interface InputRange {
  readonly from: number;
  readonly upto: number;
  readonly digest: string;
}

/** What a store holds of the input its batch took in, for a resume to check its own input against. */
export interface RecordedInput {
  /** The ranges read so far, contiguous from 0 (empty for a new batch, or a journal written before they were kept). */
  readonly ranges: readonly InputRange[];
  /** Every input order was taken in: there were exactly this many. Null while the intake is under way. */
  readonly total: number | null;
  /** The number of orders the batch was started with (its `total`), when it was given. */
  readonly declared: number | null;
  /** The orders the store keeps at input indexes `[from, upto)` (to name the first that differs). */
  ordersAt(from: number, upto: number): Promise<ReadonlyMap<number, Readonly<Order>>>;
}

/** How much read text is hashed in one call. */
const HASHED_PIECE = 16 * 1024;

/** A store's record of a new batch: nothing to check. */
export const NOTHING_RECORDED: RecordedInput = { ranges: [], total: null, declared: null, ordersAt: async () => new Map() };

/** A JSON text of `value` with every object's members in code-point order of their names: one text per value. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const value = record[keys[i]!];
    if (value === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(keys[i])}:${sortedJson(value)}`;
  }
  return `${text}}`;
}

/**
 * An input order as its identity sees it: its members in name order (a CSV's columns in another order are the same
 * input), each value as given (what is sent is what was taken in), and the names of card fields it carried (their
 * values were dropped unread and are never hashed).
 */
export function canonicalOrderText(pending: PendingOrder): string {
  return withCardNames(sortedJson(pending.order), pending);
}

function withCardNames(text: string, pending: PendingOrder): string {
  return pending.cardFields ? `${text}\u0000card:${pending.cardFields.join(',')}` : text;
}

/**
 * `canonicalOrderText` for a stream of orders, at a third of the cost: the orders of a file all have its columns, so
 * the name order is worked out once per set of names, and a flat order (no member an object) is written by
 * JSON.stringify with its names in that order, which gives the same text (a test holds the two equal).
 */
export class CanonicalOrderTexts {
  #given: readonly string[] = [];
  #sorted: string[] = [];

  text(pending: PendingOrder): string {
    const names = this.#flatNames(pending.order);
    return withCardNames(names ? JSON.stringify(pending.order, names) : sortedJson(pending.order), pending);
  }

  /** The record's member names in name order when no member is an object or array; else null. */
  #flatNames(record: Readonly<Record<string, unknown>>): string[] | null {
    const names = Object.keys(record);
    let same = names.length === this.#given.length;
    for (let i = 0; i < names.length; i++) {
      const value = record[names[i]!];
      if (value !== null && typeof value === 'object') return null;
      if (same && names[i] !== this.#given[i]) same = false;
    }
    if (!same) {
      this.#given = names;
      this.#sorted = [...names].sort();
    }
    return this.#sorted;
  }
}

/** Why a resume's input is not the batch's own: where it first differs. */
export type InputDifference =
  | { readonly kind: 'range'; readonly range: InputRange; readonly read: readonly PendingOrder[] }
  | { readonly kind: 'shorter'; readonly count: number; readonly expected: number }
  | { readonly kind: 'longer'; readonly expected: number }
  | { readonly kind: 'declared'; readonly count: number; readonly expected: number };

/**
 * The identity of a batch's input as it is read, order by order in input order. While it reads what the store
 * recorded, it checks each recorded range as its last order is read (the orders of the range are kept meanwhile, to
 * name the one that differs); `verified` resolves true once every recorded range matched (and, for an input taken in
 * whole, once the input ended with exactly its orders), or false once it differs (where: from `take` and `end`). Past the recorded
 * ranges it records new ones: `cut` gives the range read since the last cut, written with each intake write.
 */
export class InputDigest {
  readonly #recorded: RecordedInput;
  #next = 0;
  #count = 0;
  #from = 0;
  #hash: Hash = createHash('sha256');
  /** Text read and not yet hashed: hashed in pieces of some kilobytes, not a call per order. */
  #unhashed = '';
  readonly #texts = new CanonicalOrderTexts();
  /** The orders of the recorded range being checked. */
  #read: PendingOrder[] = [];
  /** Digests of the ranges so far, recorded and new, for the whole input's digest. */
  readonly #digests: string[] = [];
  #ended = false;
  #settled = false;
  readonly verified: Promise<boolean>;
  #settle!: (difference: InputDifference | null) => void;

  constructor(recorded: RecordedInput) {
    this.#recorded = recorded;
    this.verified = new Promise<boolean>((resolve) => {
      this.#settle = (difference) => {
        this.#settled = true;
        resolve(difference === null);
      };
    });
    if (!this.#checking && recorded.total === null) this.#settle(null);
  }

  /** Still reading ranges the store recorded. */
  get #checking(): boolean {
    return this.#next < this.#recorded.ranges.length;
  }

  /** True once the recorded ranges are checked: from then on what is read is new to the store. */
  get past(): boolean {
    return !this.#checking;
  }

  /** How many input orders were read. */
  get count(): number {
    return this.#count;
  }

  /** True once `verified` is decided: the input was found the batch's own, or not. */
  get settled(): boolean {
    return this.#settled;
  }

  /** True once the input ended (`end` was called). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Reads the next input order (input order `count`); returns where the input differs, when this order shows it. */
  take(pending: PendingOrder): InputDifference | null {
    this.#unhashed += `${pending.index}\t${this.#texts.text(pending)}\n`;
    if (this.#unhashed.length >= HASHED_PIECE) this.#hashPending();
    this.#count = pending.index + 1;
    if (!this.#checking) return null;
    const range = this.#recorded.ranges[this.#next]!;
    this.#read.push(pending);
    if (this.#count < range.upto) return null;
    const digest = this.#digest();
    if (digest !== range.digest) return this.#differs({ kind: 'range', range, read: this.#read });
    this.#digests.push(digest);
    this.#next += 1;
    this.#from = this.#count;
    this.#hash = createHash('sha256');
    this.#read = [];
    if (!this.#checking && this.#recorded.total === null) this.#settle(null);
    return null;
  }

  /** The input ended after `count` orders; returns where it differs from what the store recorded, if it does. */
  end(): InputDifference | null {
    this.#ended = true;
    const { total, declared } = this.#recorded;
    const recordedUpto = this.#recorded.ranges.at(-1)?.upto ?? 0;
    let difference: InputDifference | null = null;
    if (this.#count < recordedUpto) difference = { kind: 'shorter', count: this.#count, expected: total ?? recordedUpto };
    else if (total !== null && this.#count > total) difference = { kind: 'longer', expected: total };
    else if (total === null && declared !== null && this.#count !== declared) difference = { kind: 'declared', count: this.#count, expected: declared };
    if (difference) return this.#differs(difference);
    this.#settle(null);
    return null;
  }

  #differs(difference: InputDifference): InputDifference {
    this.#settle(difference);
    return difference;
  }

  /** The range read since the last cut (to record with an intake write), or null when nothing new was read. */
  cut(): InputRange | null {
    if (this.#checking || this.#count === this.#from) return null;
    const range = { from: this.#from, upto: this.#count, digest: this.#digest() };
    this.#digests.push(range.digest);
    this.#from = this.#count;
    this.#hash = createHash('sha256');
    return range;
  }

  #hashPending(): void {
    this.#hash.update(this.#unhashed);
    this.#unhashed = '';
  }

  /** The digest of what was read since the last one (the hash is then used up: the caller starts a new one). */
  #digest(): string {
    this.#hashPending();
    return this.#hash.digest('base64');
  }

  /** The whole input's digest, once it is all read and cut: the SHA-256 of its ranges' digests in order. */
  whole(): string {
    return createHash('sha256').update(this.#digests.join('\n')).digest('base64');
  }
}
