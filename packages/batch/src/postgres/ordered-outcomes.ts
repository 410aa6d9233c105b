import type { OrderOutcome } from '../outcome.ts';

/** Pages of a batch's outcomes: one row per order refused at intake and one per committed chunk. */
export interface OutcomePages {
  /** Per-order rows with index above `after`, ascending, at most `size`. */
  orders(after: number, size: number): Promise<OrderOutcome[]>;
  /** Chunk rows after (`first`, `chunk`), by first index then chunk, at most `size`: each chunk's outcomes. */
  chunks(first: number, chunk: number, size: number): Promise<{ first: number; chunk: number; outcomes: OrderOutcome[] }[]>;
}

/** Every outcome of a batch in input order, read a page at a time from both kinds of rows. */
export function orderedOutcomes(pages: OutcomePages, pageSize: number, chunkPageSize: number): AsyncGenerator<OrderOutcome> {
  return mergeAscending(singleRows(pages, pageSize), chunkRows(pages, chunkPageSize));
}

async function* singleRows(pages: OutcomePages, pageSize: number): AsyncGenerator<OrderOutcome> {
  for (let after = -1; ;) {
    const rows = await pages.orders(after, pageSize);
    yield* rows;
    if (rows.length < pageSize) return;
    after = rows.at(-1)!.index;
  }
}

/**
 * Chunk rows' outcomes in input order. Rows come by their first index: once a row starts at index m, every outcome
 * below m has been read (a chunk's outcomes are all at or above its first index), so those go out; only the outcomes
 * of chunks reaching past m stay in memory.
 */
async function* chunkRows(pages: OutcomePages, pageSize: number): AsyncGenerator<OrderOutcome> {
  let held: OrderOutcome[] = [];
  const below = (limit: number): OrderOutcome[] => {
    held.sort((a, b) => a.index - b.index);
    let n = 0;
    while (n < held.length && held[n]!.index < limit) n++;
    const out = held.slice(0, n);
    held = held.slice(n);
    return out;
  };
  for (let first = -1, chunk = -1; ;) {
    const rows = await pages.chunks(first, chunk, pageSize);
    for (const row of rows) {
      yield* below(row.first);
      for (const outcome of row.outcomes) held.push(outcome);
    }
    if (rows.length < pageSize) break;
    ({ first, chunk } = rows.at(-1)!);
  }
  yield* below(Number.POSITIVE_INFINITY);
}

async function* mergeAscending(a: AsyncGenerator<OrderOutcome>, b: AsyncGenerator<OrderOutcome>): AsyncGenerator<OrderOutcome> {
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.index <= y.value.index)) {
      yield x.value as OrderOutcome;
      x = await a.next();
    } else {
      yield y.value;
      y = await b.next();
    }
  }
}
