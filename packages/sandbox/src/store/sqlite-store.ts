// Keeps the sandbox's state in a state file (`stateFile`, `gw sandbox --state`): loaded at start, and every change
// written once per turn of the event loop; an answer that reports a change is written only once that write is kept
// (StateKeeper). A write that fails (a full disk) is undone in memory too: the state is read back from the file.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SandboxClock } from '../state/clock.ts';
import type { IdSource } from '../state/ids.ts';
import type { LedgerEntry, NotificationDelivery, SandboxOrder, SandboxState, SandboxSubscription } from '../state/state.ts';
import { decodeEntity, encodeEntity } from './codec.ts';
import { openStateFile } from './open-state-file.ts';
import { CLOSED_CLEANLY } from './schema.ts';
import { StateNotKeptError, type StateKeeper } from './state-keeper.ts';
import { upgradeOrder, type StoredOrder } from './upgrade-order.ts';
import type { StateChange } from '../state/state-change.ts';
import { SandboxStateFileError } from './state-file-error.ts';

/** The delivery with `id` in a log ordered by id (binary search). */
function findDelivery(log: readonly NotificationDelivery[], id: number): NotificationDelivery | undefined {
  let lo = 0;
  let hi = log.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = log[mid]!;
    if (d.id === id) return d;
    if (d.id < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** What the store keeps and restores. */
export interface StoreTargets {
  readonly state: SandboxState;
  readonly clock: SandboxClock;
  readonly ids: IdSource;
}

/** How many undone ranges of change numbers are remembered for answers still to be written. */
const UNDONE_KEPT = 64;

/** An answer waiting for the write of the changes it reports. */
interface WaitingAnswer {
  readonly before: number;
  readonly through: number;
  readonly answer: (failure: StateNotKeptError | null) => void;
}

/** A sandbox state kept in an SQLite file. */
export class SqliteStateStore implements StateKeeper {
  readonly #db: DatabaseSync;
  readonly #file: string;
  readonly #t: StoreTargets;
  readonly #onUndone: () => void;
  readonly #dirty = { order: new Set<string>(), subscription: new Set<string>(), payout: new Set<string>(), notification: new Set<number>() };
  /** A reset asked for: every table is emptied in the next write. */
  #clearAll = false;
  #ledgerSaved = 0;
  #scheduled = false;
  #statements = new Map<string, StatementSync>();
  /** True while the file is read back: the state's own changes are then not changes to write. */
  #loading = false;
  #changeCount = 0;
  /** Changes numbered up to this went through a write (kept, or undone when it failed). */
  #writtenThrough = 0;
  /** Ranges (after, through] of change numbers a failed write undid, latest last. */
  readonly #undone: [number, number][] = [];
  #forgottenThrough = 0;
  #waiting: WaitingAnswer[] = [];
  #failing = false;
  #lastError: unknown = null;

  private constructor(db: DatabaseSync, file: string, targets: StoreTargets, onUndone: () => void) {
    this.#db = db;
    this.#file = file;
    this.#t = targets;
    this.#onUndone = onUndone;
  }

  /**
   * Opens (or creates) `file`, loads what it holds into the targets, and starts keeping every change. `onUndone` runs
   * after a failed write was undone (the state read back from the file), e.g. to restart notification deliveries.
   */
  static async open(file: string, targets: StoreTargets, onUndone: () => void = () => {}): Promise<SqliteStateStore> {
    const store = new SqliteStateStore(await openStateFile(file), file, targets, onUndone);
    try {
      store.#load();
    } catch (error) {
      store.#db.close();
      if (error instanceof SandboxStateFileError) throw error;
      throw new SandboxStateFileError(file, `its content cannot be read back (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    targets.state.observe((change) => store.#changed(change));
    return store;
  }

  #sql(text: string): StatementSync {
    let statement = this.#statements.get(text);
    if (!statement) this.#statements.set(text, (statement = this.#db.prepare(text)));
    return statement;
  }

  #rows(table: string): { key: string; body: string; parameters?: string | null }[] {
    return this.#sql(`SELECT * FROM ${table} ORDER BY rowid`).all() as { key: string; body: string; parameters?: string | null }[];
  }

  #load(): void {
    const { state, clock, ids } = this.#t;
    for (const row of this.#rows('orders')) {
      const { order, upgraded } = upgradeOrder(decodeEntity<StoredOrder>(row.body));
      state.addOrder({ ...order, record: Object.freeze(order.record) });
      if (upgraded) this.#dirty.order.add(order.transactionId);
    }
    for (const row of this.#rows('subscriptions')) state.subscriptions.set(row.key, decodeEntity<SandboxSubscription>(row.body));
    for (const row of this.#rows('payouts')) {
      state.payouts.set(row.key, Object.freeze(decodeEntity<Record<string, unknown>>(row.body)));
      if (row.parameters) state.payoutParameters.set(row.key, row.parameters);
    }
    for (const row of this.#sql('SELECT body FROM notifications ORDER BY id').all() as { body: string }[])
      state.notifications.push(decodeEntity<NotificationDelivery>(row.body));
    for (const row of this.#sql('SELECT body FROM ledger ORDER BY seq').all() as { body: string }[]) state.ledger.push(decodeEntity<LedgerEntry>(row.body));
    this.#ledgerSaved = state.ledger.at(-1)?.seq ?? 0;
    const meta = new Map((this.#sql('SELECT key, value FROM gw_sandbox_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    ids.restoreSequence(Number(meta.get('idSequence') ?? 0));
    state.restoreNotificationSeq(Math.max(Number(meta.get('notificationSeq') ?? 0), state.notifications.at(-1)?.id ?? 0));
    clock.restoreOffset(Number(meta.get('clockOffsetMs') ?? 0));
    if (this.#dirty.order.size > 0) this.schedule();
  }

  #changed(change: StateChange): void {
    if (this.#loading) return;
    if (change.kind === 'reset') {
      for (const set of Object.values(this.#dirty)) set.clear();
      this.#clearAll = true;
      this.#ledgerSaved = 0;
    } else if (change.kind === 'notification') this.#dirty.notification.add(change.id);
    else if (change.kind !== 'ledger') this.#dirty[change.kind].add(change.key);
    this.schedule();
  }

  /** Writes soon (this turn of the event loop): also for changes the state does not announce, such as the clock's offset. */
  schedule(): void {
    this.#changeCount += 1;
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.flush());
  }

  get changeCount(): number {
    return this.#changeCount;
  }

  afterKept(before: number, answer: (failure: StateNotKeptError | null) => void): void {
    const through = this.#changeCount;
    if (through <= this.#writtenThrough) return void setImmediate(answer, this.#outcome(before, through));
    this.#waiting.push({ before, through, answer });
    if (!this.#scheduled) this.schedule();
  }

  /** Null when every change in (before, through] was kept; the failure that undid one of them otherwise. */
  #outcome(before: number, through: number): StateNotKeptError | null {
    if (before < this.#forgottenThrough) return new StateNotKeptError(this.#file, 'the outcome of this write is no longer known');
    const undone = this.#undone.some(([after, last]) => after < through && last > before);
    return undone ? new StateNotKeptError(this.#file, this.#lastError) : null;
  }

  #writeKeyed(): void {
    const { state } = this.#t;
    for (const key of this.#dirty.order) {
      const order = state.orders.get(key);
      if (order) this.#sql('INSERT INTO orders (key, body) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body').run(key, encodeEntity(order));
      else this.#sql('DELETE FROM orders WHERE key = ?').run(key);
    }
    for (const key of this.#dirty.subscription) {
      const sub = state.subscriptions.get(key);
      if (sub)
        this.#sql('INSERT INTO subscriptions (key, body) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body').run(key, encodeEntity(sub));
      else this.#sql('DELETE FROM subscriptions WHERE key = ?').run(key);
    }
    for (const key of this.#dirty.payout) {
      const payout = state.payouts.get(key);
      if (payout)
        this.#sql(
          'INSERT INTO payouts (key, body, parameters) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body, parameters = excluded.parameters',
        ).run(key, encodeEntity(payout), state.payoutParameters.get(key) ?? null);
      else this.#sql('DELETE FROM payouts WHERE key = ?').run(key);
    }
  }

  #writeLogs(): void {
    const { state } = this.#t;
    if (this.#dirty.notification.size > 0) {
      for (const id of this.#dirty.notification) {
        const delivery = findDelivery(state.notifications, id);
        if (delivery)
          this.#sql('INSERT INTO notifications (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body').run(id, encodeEntity(delivery));
      }
    }
    // The ledger only grows (seq ascending) between resets: the entries not yet saved are at its end, found from there
    // rather than by walking the whole ledger at every write.
    const { ledger } = state;
    let first = ledger.length;
    while (first > 0 && ledger[first - 1]!.seq > this.#ledgerSaved) first--;
    for (let i = first; i < ledger.length; i++) {
      const entry = ledger[i]!;
      this.#sql('INSERT OR REPLACE INTO ledger (seq, body) VALUES (?, ?)').run(entry.seq, encodeEntity(entry));
    }
    this.#ledgerSaved = state.ledger.at(-1)?.seq ?? 0;
  }

  /** One transaction: every change not yet in the file, with the id sequences of the orders it holds. */
  #write(closing: boolean): void {
    const { state, clock, ids } = this.#t;
    this.#db.exec('BEGIN');
    try {
      if (this.#clearAll) this.#db.exec('DELETE FROM orders; DELETE FROM subscriptions; DELETE FROM payouts; DELETE FROM notifications; DELETE FROM ledger;');
      this.#writeKeyed();
      this.#writeLogs();
      const put = this.#sql('INSERT INTO gw_sandbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
      put.run('idSequence', String(ids.sequence));
      put.run('notificationSeq', String(state.notificationSeq));
      put.run('clockOffsetMs', String(clock.offsetMs));
      if (closing) put.run(CLOSED_CLEANLY, '1');
      this.#db.exec('COMMIT');
    } catch (error) {
      // SQLite may have rolled the transaction back itself (a full disk): ROLLBACK would then throw "no transaction is active".
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
    for (const set of Object.values(this.#dirty)) set.clear();
    this.#clearAll = false;
  }

  /** Undoes in memory what a failed write could not keep: the state is read back from the file. */
  #undo(error: unknown): void {
    const { state } = this.#t;
    for (const set of Object.values(this.#dirty)) set.clear();
    this.#clearAll = false;
    this.#loading = true;
    try {
      state.emptyForReload();
      this.#load();
    } finally {
      this.#loading = false;
    }
    if (!this.#failing) console.error(`gw sandbox: ${new StateNotKeptError(this.#file, error).message}; answering HTTP 503 to changes until a write succeeds`);
    this.#failing = true;
    this.#lastError = error;
    this.#onUndone();
  }

  /** Writes every change not yet in the file, in one transaction, then writes the answers waiting for it. */
  flush(closing = false): void {
    this.#scheduled = false;
    const after = this.#writtenThrough;
    const through = this.#changeCount;
    if (!this.#db.isOpen) {
      // Changes made while the sandbox stops, after the file was closed: not kept, so not answered as kept.
      this.#lastError = new Error('the sandbox is stopping');
      this.#markUndone(after, through);
    } else {
      try {
        this.#write(closing);
        if (this.#failing) console.error(`gw sandbox: the state file ${this.#file} is written again`);
        this.#failing = false;
      } catch (error) {
        try {
          this.#undo(error);
        } catch (readError) {
          this.#t.state.internalErrors.push(
            `state file ${this.#file}: a failed write (${String(error)}) could not be undone: ${readError instanceof Error ? (readError.stack ?? readError.message) : String(readError)}`,
          );
        }
        this.#markUndone(after, through);
      }
    }
    this.#writtenThrough = through;
    const ready = this.#waiting.filter((w) => w.through <= through);
    this.#waiting = this.#waiting.filter((w) => w.through > through);
    for (const w of ready) w.answer(this.#outcome(w.before, w.through));
  }

  #markUndone(after: number, through: number): void {
    if (through === after) return;
    this.#undone.push([after, through]);
    if (this.#undone.length > UNDONE_KEPT) this.#forgottenThrough = this.#undone.shift()![1];
  }

  /** Writes what is left, marks the file closed cleanly, and closes it. */
  close(): void {
    if (!this.#db.isOpen) return;
    this.flush(true);
    this.#db.close();
  }
}
