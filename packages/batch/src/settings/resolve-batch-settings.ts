import type pg from 'pg';
import { BatchSettingsError } from '../errors.ts';
import type { OpenJournalFile } from '../journal/batch-journal.ts';
import { BATCH_OPERATIONS, type BatchOperation } from '../operation/batch-operations.ts';
import type { BatchClient } from '../operation/batch-records.ts';
import type { OrderOutcome } from '../outcome.ts';
import { maskedLedgerUrl } from '../postgres/masked-url.ts';
import { newBatchId, newHolderName } from './names.ts';
import type { BatchProgress } from '../progress.ts';
import { cannotTellReconciler, type Reconciler } from '../reconciler.ts';
import type { BatchStage } from './batch-settings.ts';
import { BATCH_SETTINGS, type LimitName, type NumericSetting } from './settings-table.ts';

/** Which entry the settings were given to: `runBatch`, `resumeBatch` or `runBatchWorker`. */
export type BatchEntry = 'run' | 'resume' | 'worker';

/** Where the batch is kept, with the settings that apply there only. */
export type BatchStore =
  | { readonly kind: 'memory' }
  | { readonly kind: 'journal'; readonly journal: string; readonly journalFile: OpenJournalFile | undefined }
  | {
      readonly kind: 'ledger';
      readonly ledger: string | pg.Pool;
      /** A direct URL of the ledger's database for wake-ups (LISTEN), when `ledger` goes through a transaction pooler. */
      readonly ledgerListen: string | null;
      /** Hears what the ledger says once at start (its workers poll: its connection delivers no notification). */
      readonly onNotice: ((message: string) => void) | undefined;
      readonly batch: string;
      readonly holder: string;
      readonly leaseMs: number;
      readonly pollMs: number;
      readonly ledgerOutageMs: number;
      readonly batchWaitMs: number;
    };

/** A batch's settings, every one checked and every default filled in (from `BATCH_SETTINGS`). */
export interface ResolvedBatchSettings {
  readonly entry: BatchEntry;
  readonly client: BatchClient;
  /** The operation; null for a resume or a worker that leave it to the store. */
  readonly operation: BatchOperation | null;
  /** The input; null for a worker, or a resume given none. */
  readonly orders: Iterable<unknown> | AsyncIterable<unknown> | null;
  /** How many orders the input holds, when known (an array counts itself). */
  readonly total: number | null;
  readonly concurrency: number;
  readonly maxResends: number;
  readonly timeoutMs: number;
  readonly sendMarginMs: number;
  /** Requests per second and requests in flight the whole batch keeps to (null: no limit), and the longest throttle it waits out. */
  readonly maxRate: number | null;
  readonly maxInFlight: number | null;
  readonly maxThrottleWaitMs: number;
  readonly keepOutcomes: boolean;
  readonly reconcile: Reconciler;
  readonly onProgress: ((progress: BatchProgress) => void) | undefined;
  readonly onOutcome: ((outcome: OrderOutcome) => void) | undefined;
  readonly onStage: ((stage: BatchStage, chunk: number) => void | Promise<void>) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly store: BatchStore;
}

/** How long after a request is written it can still take effect: the request's time limit plus the send margin. */
export function requestsEndWithinMs(settings: { readonly timeoutMs: number; readonly sendMarginMs: number }): number {
  return settings.timeoutMs + settings.sendMarginMs;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof candidate[Symbol.iterator] === 'function' || typeof candidate[Symbol.asyncIterator] === 'function';
}

const WHERE = { run: 'runBatch', resume: 'resumeBatch', worker: 'runBatchWorker' } as const;

/** Collects every problem of a batch's options, then gives them back resolved or throws them all at once. */
class SettingsReader {
  readonly problems: string[] = [];
  readonly #options: Readonly<Record<string, unknown>>;
  readonly #entry: BatchEntry;

  constructor(options: Readonly<Record<string, unknown>>, entry: BatchEntry) {
    this.#options = options;
    this.#entry = entry;
  }

  /** The operation, checked: required by a run, optional elsewhere (the store knows it). */
  operation(): BatchOperation | null {
    const { operation } = this.#options;
    if (operation === undefined && this.#entry !== 'run') return null;
    if (!BATCH_OPERATIONS.includes(operation as BatchOperation)) {
      this.problems.push(`operation must be one of ${BATCH_OPERATIONS.join(', ')}, not ${describe(operation)}`);
      return null;
    }
    return operation as BatchOperation;
  }

  client(operation: BatchOperation | null): BatchClient {
    const { client } = this.#options;
    if (client === null || typeof client !== 'object') this.problems.push(`client must be a client (createClient from @gw/client), not ${describe(client)}`);
    else if (typeof (client as Record<string, unknown>).query !== 'function') this.problems.push('client has no query method (a batch reconciles with it)');
    else if (operation && typeof (client as Record<string, unknown>)[operation] !== 'function') this.problems.push(`client has no ${operation} method`);
    return client as BatchClient;
  }

  orders(): Iterable<unknown> | AsyncIterable<unknown> | null {
    const { orders } = this.#options;
    if (this.#entry === 'worker') {
      if (orders !== undefined) this.problems.push('orders are not given to runBatchWorker: a worker leases the chunks of the input its batch took in');
      return null;
    }
    if (orders === undefined && this.#entry === 'resume') return null;
    if (!isIterable(orders)) this.problems.push(`orders must be an iterable or async iterable of orders, not ${describe(orders)}`);
    return isIterable(orders) ? orders : null;
  }

  /** A numeric setting from the table: given, checked against its least value and its scope; else its default. */
  numeric(setting: NumericSetting, store: BatchStore['kind']): number | null {
    const value = this.#options[setting.name];
    if (value === undefined) return setting.default;
    const applies = setting.scope === 'any' || (setting.scope === 'ledger' && store === 'ledger') || (setting.scope === 'worker' && this.#entry === 'worker');
    if (!applies) {
      this.problems.push(
        setting.scope === 'worker'
          ? `${setting.name} applies to runBatchWorker only, not ${WHERE[this.#entry]}`
          : `${setting.name} applies to a batch kept in a ledger only: ${store === 'journal' ? "a journal's run" : 'a batch in memory'} is its only holder`,
      );
      return setting.default;
    }
    if (!(Number.isInteger(value) && (value as number) >= setting.least)) {
      this.problems.push(
        `${setting.name} must be a whole number${setting.unit === 'ms' ? ' of milliseconds' : ''} of at least ${setting.least}, not ${describe(value)}`,
      );
      return setting.default;
    }
    return value as number;
  }

  total(): number | null {
    const { total, orders } = this.#options;
    if (total !== undefined && this.#entry === 'worker') this.problems.push('total is not given to runBatchWorker: its batch knows its input');
    else if (total !== undefined && !(Number.isInteger(total) && (total as number) >= 0))
      this.problems.push(`total must be a whole number of at least 0, not ${describe(total)}`);
    else if (total !== undefined) return total as number;
    return Array.isArray(orders) ? orders.length : null;
  }

  /** Where the batch is kept: a journal, a ledger (its id and holder named), or memory alone (a run without either). */
  storeKind(): BatchStore['kind'] {
    const { journal, ledger } = this.#options;
    if (journal !== undefined && ledger !== undefined) {
      this.problems.push('journal and ledger cannot both be given: a batch is kept in one of them');
      return 'ledger';
    }
    if (ledger !== undefined) return 'ledger';
    if (journal !== undefined) return 'journal';
    if (this.#entry === 'worker') this.problems.push('a worker needs the ledger (a postgres:// URL or a pg Pool) of the batch it joins');
    else if (this.#entry === 'resume')
      this.problems.push("journal must be the interrupted batch's journal file (or give the ledger and batch of a batch kept in PostgreSQL)");
    return this.#entry === 'run' ? 'memory' : 'ledger';
  }

  journal(): string {
    const { journal } = this.#options;
    if (typeof journal !== 'string' || journal === '')
      this.problems.push(`journal must be ${this.#entry === 'resume' ? "the interrupted batch's journal file" : 'a file path'}, not ${describe(journal)}`);
    return journal as string;
  }

  ledger(): { ledger: string | pg.Pool; ledgerListen: string | null; onNotice: ((message: string) => void) | undefined; batch: string; holder: string } {
    const { ledger, ledgerListen, onNotice, batch, holder } = this.#options;
    const url = typeof ledger === 'string' && /^postgres(ql)?:\/\//.test(ledger);
    const listenUrl = typeof ledgerListen === 'string' && /^postgres(ql)?:\/\//.test(ledgerListen);
    if (ledgerListen !== undefined && !listenUrl)
      this.problems.push(
        `ledgerListen must be a postgres:// URL of the ledger's database reached directly, not ${describe(typeof ledgerListen === 'string' ? maskedLedgerUrl(ledgerListen) : ledgerListen)}`,
      );
    if (onNotice !== undefined && typeof onNotice !== 'function') this.problems.push(`onNotice must be a function, not ${describe(onNotice)}`);
    const pool = ledger !== null && typeof ledger === 'object' && typeof (ledger as { query?: unknown }).query === 'function';
    if (!url && !pool)
      this.problems.push(`ledger must be a postgres:// URL or a pg Pool, not ${describe(typeof ledger === 'string' ? maskedLedgerUrl(ledger) : ledger)}`);
    const named = batch !== undefined || this.#entry !== 'run';
    if (named && (typeof batch !== 'string' || batch === '' || batch.length > 200))
      this.problems.push(
        `batch must be ${this.#entry === 'run' ? 'a batch id of 1 to 200 characters' : "the batch's id in the ledger"}, not ${describe(batch)}`,
      );
    if (holder !== undefined && (typeof holder !== 'string' || holder === ''))
      this.problems.push(`holder must be a name for this worker's leases, not ${describe(holder)}`);
    return {
      ledger: ledger as string | pg.Pool,
      ledgerListen: listenUrl ? (ledgerListen as string) : null,
      onNotice: typeof onNotice === 'function' ? (onNotice as (message: string) => void) : undefined,
      batch: (batch as string | undefined) ?? newBatchId(),
      holder: (holder as string | undefined) ?? newHolderName(),
    };
  }

  /** Options that apply to one store only, given with another. */
  notFor(store: BatchStore['kind']): void {
    const only: Record<string, BatchStore['kind']> = { journalFile: 'journal', batch: 'ledger', holder: 'ledger', ledgerListen: 'ledger', onNotice: 'ledger' };
    for (const [name, kind] of Object.entries(only)) {
      if (this.#options[name] !== undefined && store !== kind) this.problems.push(`${name} applies to a batch kept in a ${kind} only`);
    }
  }

  functions(): void {
    for (const name of ['onProgress', 'onOutcome', 'reconcile', 'onStage', 'journalFile'] as const) {
      const value = this.#options[name];
      if (value !== undefined && typeof value !== 'function') this.problems.push(`${name} must be a function, not ${describe(value)}`);
    }
    const { keepOutcomes, signal } = this.#options;
    if (keepOutcomes !== undefined && typeof keepOutcomes !== 'boolean')
      this.problems.push(`keepOutcomes must be true or false, not ${describe(keepOutcomes)}`);
    if (signal !== undefined && !(signal instanceof AbortSignal)) this.problems.push(`signal must be an AbortSignal, not ${describe(signal)}`);
  }
}

/**
 * A lease must outlast a request and its margin: a worker sends only with `sendMarginMs` of lease left, and its request
 * may be in flight `timeoutMs` after that; a lease ending sooner would let another worker take the chunk over while
 * the send may still take effect (it waits it out, but renewals stop mattering and every slow answer becomes a takeover).
 */
function leaseProblem(options: Readonly<Record<string, unknown>>, leaseMs: number, timeoutMs: number, sendMarginMs: number): string | null {
  const least = timeoutMs + sendMarginMs;
  if (leaseMs > least) return null;
  const shown = (name: string, value: number) => `${value}${options[name] === undefined ? ', the default' : ''}`;
  return `leaseMs (${shown('leaseMs', leaseMs)}) must be longer than timeoutMs (${shown('timeoutMs', timeoutMs)}) + sendMarginMs (${shown('sendMarginMs', sendMarginMs)}) = ${least}: a chunk is sent only with sendMarginMs of its lease left and its request may run timeoutMs after that; raise leaseMs or lower timeoutMs`;
}

/**
 * Checks every option given to `runBatch`, `resumeBatch` or `runBatchWorker` once, fills every default once (from
 * `BATCH_SETTINGS`), refuses options that do not apply to the store chosen (a lease with a journal) or to the entry
 * (`batchWaitMs` outside a worker), and gives them back typed; throws one BatchSettingsError naming every problem, before
 * any file is opened, database reached or request sent.
 */
export function resolveBatchSettings(options: object, entry: BatchEntry): ResolvedBatchSettings {
  const given = options as Readonly<Record<string, unknown>>;
  const read = new SettingsReader(given, entry);
  const operation = read.operation();
  const client = read.client(operation);
  const orders = read.orders();
  const kind = read.storeKind();
  const number = Object.fromEntries(BATCH_SETTINGS.map((s) => [s.name, read.numeric(s, kind)])) as {
    [K in NumericSetting['name']]: K extends LimitName ? number | null : number;
  };
  const total = read.total();
  read.notFor(kind);
  read.functions();
  let store: BatchStore;
  if (kind === 'journal') store = { kind, journal: read.journal(), journalFile: given.journalFile as OpenJournalFile | undefined };
  else if (kind === 'ledger') {
    store = { kind, ...read.ledger(), leaseMs: number.leaseMs, pollMs: number.pollMs, ledgerOutageMs: number.ledgerOutageMs, batchWaitMs: number.batchWaitMs };
    const lease = leaseProblem(given, number.leaseMs, number.timeoutMs, number.sendMarginMs);
    if (lease) read.problems.push(lease);
  } else store = { kind };
  if (read.problems.length > 0) throw new BatchSettingsError(read.problems);
  return {
    entry,
    client,
    operation,
    orders,
    total,
    concurrency: number.concurrency,
    maxResends: number.maxResends,
    timeoutMs: number.timeoutMs,
    sendMarginMs: number.sendMarginMs,
    maxRate: number.maxRate,
    maxInFlight: number.maxInFlight,
    maxThrottleWaitMs: number.maxThrottleWaitMs,
    keepOutcomes: (given.keepOutcomes as boolean | undefined) ?? true,
    reconcile: (given.reconcile as Reconciler | undefined) ?? cannotTellReconciler,
    onProgress: given.onProgress as ResolvedBatchSettings['onProgress'],
    onOutcome: given.onOutcome as ResolvedBatchSettings['onOutcome'],
    onStage: given.onStage as ResolvedBatchSettings['onStage'],
    signal: given.signal as AbortSignal | undefined,
    store,
  };
}
