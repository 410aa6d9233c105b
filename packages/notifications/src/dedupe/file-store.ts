import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createMemoryDedupeStore } from './memory-store.ts';
import type { DedupeStore } from './store.ts';

/**
 * A store for one process (the CLI's `gw listen`): handled ids are appended to `path`, one per line, and read back on
 * start, so a restart does not run a handler again. Claims stay in memory: do not share the file between processes.
 */
export function createFileDedupeStore(path: string): DedupeStore {
  const memory = createMemoryDedupeStore({ maxEntries: Number.MAX_SAFE_INTEGER });
  if (existsSync(path)) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const id = line.trim();
      if (id !== '') memory.commit(id);
    }
  } else mkdirSync(dirname(path), { recursive: true });
  return {
    claim: (id, leaseMs) => memory.claim(id, leaseMs),
    commit(id) {
      // Written before it counts as done: a crash after the write cannot run the handler twice.
      appendFileSync(path, `${id.replaceAll('\n', '')}\n`);
      return memory.commit(id);
    },
    release: (id) => memory.release(id),
  };
}
