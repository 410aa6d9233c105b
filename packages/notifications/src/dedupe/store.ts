/**
 * The answer to a claim: `claimed` (this delivery runs the handler), `done` (the event was already handled: acknowledge
 * without running it again), `busy` (another delivery of the same event is running it right now: answer non-2xx so
 * the sender retries later).
 */
export type ClaimResult = 'claimed' | 'done' | 'busy';

/**
 * Where handled event ids are kept, so each event's handler runs once under duplicates, retries and concurrent
 * deliveries: `claim` -> run the handler -> `commit`, or `release` when the handler threw (the retry runs it again).
 *
 * To back it with SQL or Redis, the three steps must be atomic per id:
 * - SQL: `claim` = `INSERT INTO gw_events(id, state, lease_until) VALUES ($1, 'processing', now() + lease) ON CONFLICT
 *   (id) DO UPDATE SET lease_until = EXCLUDED.lease_until WHERE gw_events.state = 'processing' AND
 *   gw_events.lease_until < now() RETURNING id` (a row back: `claimed`; else read the row: `done` or `busy`);
 *   `commit` = `UPDATE ... SET state = 'done'`; `release` = `DELETE ... WHERE state = 'processing'`.
 *   Commit in the same transaction as the handler's own writes when they share the database.
 * - Redis: `claim` = `SET gw:evt:<id> processing NX PX <leaseMs>` (OK: `claimed`; else `GET`: `done` or `busy`);
 *   `commit` = `SET gw:evt:<id> done EX <retention>`; `release` = delete the key if it still says `processing`.
 */
export interface DedupeStore {
  /** Claims `id` for `leaseMs`; a claim older than its lease (a crashed process) may be taken over. */
  claim(id: string, leaseMs: number): ClaimResult | Promise<ClaimResult>;
  /** Marks `id` handled for good. */
  commit(id: string): void | Promise<void>;
  /** Gives a claim back after the handler failed, so a later delivery runs it. */
  release(id: string): void | Promise<void>;
}

/** A DedupeStore that answers at once (the memory and file stores): nothing of it needs awaiting. */
export interface SyncDedupeStore extends DedupeStore {
  claim(id: string, leaseMs: number): ClaimResult;
  commit(id: string): void;
  release(id: string): void;
}
