import { describe, expect, it } from 'vitest';
import { createMemoryDedupeStore } from '../src/index.ts';

describe('the memory de-duplication store', () => {
  it('keeps at most maxEntries handled ids, forgetting the oldest first', () => {
    const store = createMemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(store.claim(id, 1000)).toBe('claimed');
      store.commit(id);
    }
    expect(store.claim('a', 1000)).toBe('claimed'); // forgotten
    expect(['b', 'c', 'd'].map((id) => store.claim(id, 1000))).toEqual(['done', 'done', 'done']);
  });

  it('lets a claim older than its lease be taken over (a crashed delivery), not a live one', () => {
    let now = 0;
    const store = createMemoryDedupeStore({ now: () => now });
    expect(store.claim('e', 100)).toBe('claimed');
    now = 50;
    expect(store.claim('e', 100)).toBe('busy');
    now = 101;
    expect(store.claim('e', 100)).toBe('claimed');
    store.release('e');
    expect(store.claim('e', 100)).toBe('claimed');
  });

  it('keeps a handled id handled after a stray release, and counts a repeated commit once', () => {
    const store = createMemoryDedupeStore({ maxEntries: 2 });
    expect(store.claim('x', 1000)).toBe('claimed');
    store.commit('x');
    store.release('x'); // a late release (a second delivery that failed) must not undo the commit
    expect(store.claim('x', 1000)).toBe('done');
    store.commit('x'); // again: still one entry, so 'x' is not pushed out by itself
    store.commit('y');
    expect([store.claim('x', 1000), store.claim('y', 1000)]).toEqual(['done', 'done']);
  });

  it('commits an id without a claim (a store filled from elsewhere) and refuses it afterwards', () => {
    const store = createMemoryDedupeStore();
    store.commit('z');
    expect(store.claim('z', 1000)).toBe('done');
  });
});
