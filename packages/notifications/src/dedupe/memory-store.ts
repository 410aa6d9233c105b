import type { ClaimResult, SyncDedupeStore } from './store.ts';

/** Options of `createMemoryDedupeStore`. */
export interface MemoryDedupeStoreOptions {
  /** Handled ids kept at most; the oldest are forgotten first. Default 100,000. */
  readonly maxEntries?: number;
  /** The clock for leases. Default `Date.now`. */
  readonly now?: () => number;
}

// The state of an id in the one map: DONE once handled, otherwise the time its claim's lease ends.
const DONE = -1;

/** The default store: one process's memory. Handled ids are lost on restart; use a shared store for several processes. */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): SyncDedupeStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  // One map for claims and handled ids: a claim and its commit each look the id up once and set it once.
  const states = new Map<string, number>();
  // Handled ids in commit order, as a ring: forgetting the oldest is O(1) (iterating a Map from its start after many
  // deletions is not).
  const order: string[] = [];
  let oldest = 0;
  return {
    claim(id, leaseMs): ClaimResult {
      const state = states.get(id);
      if (state === DONE) return 'done';
      const at = now();
      if (state !== undefined && state > at) return 'busy';
      states.set(id, at + leaseMs);
      return 'claimed';
    },
    commit(id) {
      if (states.get(id) === DONE) return;
      states.set(id, DONE);
      if (order.length < maxEntries) {
        order.push(id);
        return;
      }
      states.delete(order[oldest]!);
      order[oldest] = id;
      oldest = (oldest + 1) % maxEntries;
    },
    release(id) {
      if (states.get(id) !== DONE) states.delete(id);
    },
  };
}
