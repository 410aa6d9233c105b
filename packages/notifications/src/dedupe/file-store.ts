import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { createMemoryDedupeStore } from './memory-store.ts';
import type { SyncDedupeStore } from './store.ts';

/**
 * An id as one line of the file: as it is when reading it back gives it exactly; otherwise (spaces or a line break at
 * its ends or inside, a backslash, a leading quote) as a JSON string, which holds any id the envelope accepts.
 */
export function idLine(id: string): string {
  const plain = id === id.trim() && !/[\r\n\\]/.test(id) && !id.startsWith('"');
  return plain ? id : JSON.stringify(id);
}

/** The id a line of the file holds (a JSON string, or the id as it is: files written before ids were quoted hold those). */
export function idOfLine(line: string): string {
  if (line.startsWith('"')) {
    try {
      const id: unknown = JSON.parse(line);
      if (typeof id === 'string') return id;
    } catch {
      // Not JSON: an id written as it is.
    }
  }
  return line.trim();
}

/**
 * A store for one process (the CLI's `gw listen`): handled ids are appended to `path`, one per line (`idLine`), and
 * read back on start, so a restart does not run a handler again, whatever characters an id holds. Claims stay in
 * memory: do not share the file between processes. A write that fails (ENOSPC on a full disk) throws and leaves no
 * part of its line behind.
 */
export function createFileDedupeStore(path: string): SyncDedupeStore {
  const memory = createMemoryDedupeStore({ maxEntries: Number.MAX_SAFE_INTEGER });
  if (existsSync(path)) {
    const bytes = readFileSync(path);
    // Only whole lines count: a last line without its newline was cut by a crash mid-write; it is cut off the file.
    const whole = bytes.lastIndexOf(0x0a) + 1;
    for (const line of bytes.toString('utf8', 0, whole).split('\n')) {
      if (line.trim() !== '') memory.commit(idOfLine(line));
    }
    if (whole !== bytes.length) truncateSync(path, whole);
  } else mkdirSync(dirname(path), { recursive: true });
  let torn = false;
  return {
    claim: (id, leaseMs) => memory.claim(id, leaseMs),
    commit(id) {
      // Written before it counts as done: a crash after the write cannot run the handler twice.
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      try {
        appendFileSync(path, `${torn ? '\n' : ''}${idLine(id)}\n`);
        torn = false;
      } catch (error) {
        // A full disk may have taken part of the line: cut it (or, if even that fails, start the next on a new line).
        try {
          truncateSync(path, size);
        } catch {
          torn = true;
        }
        throw error;
      }
      return memory.commit(id);
    },
    release: (id) => memory.release(id),
  };
}
