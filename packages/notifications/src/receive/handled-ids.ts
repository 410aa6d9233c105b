import type { DedupeStore } from '../dedupe/store.ts';
import { NotificationNotRecordedError, type NotificationNotRecordedDetails } from '../errors.ts';
import { isThenable } from './thenable.ts';

/**
 * Records handled event ids in the store. An id the store refuses after its handler finished (a full disk, a database
 * down) is kept here, in memory for the life of the process: its later deliveries are acknowledged without running the
 * handler, and it is recorded as soon as the store takes one again.
 */
export class HandledIds {
  readonly #store: DedupeStore;
  readonly #unrecorded = new Set<string>();
  #recordingPending = false;

  constructor(store: DedupeStore) {
    this.#store = store;
  }

  /** True when this id's handler finished here and the store has not recorded it yet. */
  unrecorded(id: string): boolean {
    return this.#unrecorded.size > 0 && this.#unrecorded.has(id);
  }

  /**
   * Commits `id`: null once recorded, or the error when the store refused it (the id is then kept in memory). A
   * synchronous store that records it, with nothing pending, answers without a promise.
   */
  record(id: string, when: NotificationNotRecordedDetails['when']): NotificationNotRecordedError | null | Promise<NotificationNotRecordedError | null> {
    let committed: void | Promise<void>;
    try {
      committed = this.#store.commit(id);
    } catch (cause) {
      return this.#refused(id, when, cause);
    }
    if (isThenable(committed)) return this.#settle(committed, id, when);
    if (this.#unrecorded.size === 0) return null;
    this.#unrecorded.delete(id);
    return this.#recordPending().then(() => null);
  }

  async #settle(committed: PromiseLike<void>, id: string, when: NotificationNotRecordedDetails['when']): Promise<NotificationNotRecordedError | null> {
    try {
      await committed;
    } catch (cause) {
      return this.#refused(id, when, cause);
    }
    if (this.#unrecorded.size > 0) {
      this.#unrecorded.delete(id);
      await this.#recordPending();
    }
    return null;
  }

  #refused(id: string, when: NotificationNotRecordedDetails['when'], cause: unknown): NotificationNotRecordedError {
    this.#unrecorded.add(id);
    return new NotificationNotRecordedError(id, when, cause);
  }

  // The store took an id again: the ids it refused before are recorded now, oldest first, until one is refused again
  // (already reported; kept for the next try). One pass at a time.
  async #recordPending(): Promise<void> {
    if (this.#recordingPending) return;
    this.#recordingPending = true;
    try {
      for (const id of [...this.#unrecorded]) {
        const committed = this.#store.commit(id);
        if (isThenable(committed)) await committed;
        this.#unrecorded.delete(id);
      }
    } catch {
      // still refused: kept in memory, tried again after the next id the store records
    } finally {
      this.#recordingPending = false;
    }
  }
}
