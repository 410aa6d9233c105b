import type { ClaimResult, DedupeStore } from './store.ts';

/** Options of `createMemoryDedupeStore`. */
export interface MemoryDedupeStoreOptions {
  /** Handled ids kept at most; the oldest are forgotten first. Default 100,000. */
  readonly maxEntries?: number;
  /** The clock for leases. Default `Date.now`. */
  readonly now?: () => number;
}

/** The default store: one process's memory. Handled ids are lost on restart; use a shared store for several processes. */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): DedupeStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const done = new Set<string>();
  // Handled ids in commit order, as a ring: forgetting the oldest is O(1) (iterating a Set from its start after many
  // deletions is not).
  const order: string[] = [];
  let oldest = 0;
  const leases = new Map<string, number>();
  return {
    claim(id, leaseMs): ClaimResult {
      if (done.has(id)) return 'done';
      const at = now();
      const until = leases.get(id);
      if (until !== undefined && until > at) return 'busy';
      leases.set(id, at + leaseMs);
      return 'claimed';
    },
    commit(id) {
      leases.delete(id);
      if (done.has(id)) return;
      done.add(id);
      if (order.length < maxEntries) {
        order.push(id);
        return;
      }
      done.delete(order[oldest]!);
      order[oldest] = id;
      oldest = (oldest + 1) % maxEntries;
    },
    release(id) {
      leases.delete(id);
    },
  };
}
