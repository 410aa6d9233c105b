import type { BatchOperation } from './operation/batch-operations.ts';
import { BATCH_OPERATIONS as OPERATIONS } from './operation/batch-operations.ts';
import { BatchSettingsError } from './errors.ts';
import { BATCH_DEFAULTS } from './batch-defaults.ts';
import { maskedLedgerUrl } from './postgres/masked-url.ts';


function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

function isIterable(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'string')) return false;
  const candidate = value as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof candidate[Symbol.iterator] === 'function' || typeof candidate[Symbol.asyncIterator] === 'function';
}

/**
 * Checks what `runBatch` / `resumeBatch` were given and throws one BatchSettingsError naming every problem (a
 * concurrency of 0 or NaN would otherwise never send, or never stop).
 */
export function checkBatchSettings(settings: Record<string, unknown>, options: { resuming: boolean }): void {
  const problems: string[] = [];
  const { operation, client, orders, concurrency, maxResends, total, keepOutcomes, journal, signal, ledger, batch, leaseMs, pollMs, timeoutMs, sendMarginMs, ledgerOutageMs } = settings;
  // resumeBatch reads the operation from the journal (when given, it must match); runBatch needs it.
  if (operation !== undefined || !options.resuming) {
    if (!OPERATIONS.includes(operation as BatchOperation)) problems.push(`operation must be one of ${OPERATIONS.join(', ')}, not ${describe(operation)}`);
  }
  if (client === null || typeof client !== 'object') problems.push(`client must be a client (createClient from @gw/client), not ${describe(client)}`);
  else if (typeof (client as Record<string, unknown>).query !== 'function') problems.push('client has no query method (a batch reconciles with it)');
  else if (OPERATIONS.includes(operation as BatchOperation) && typeof (client as Record<string, unknown>)[operation as string] !== 'function') {
    problems.push(`client has no ${String(operation)} method`);
  }
  if ((orders !== undefined || ledger === undefined || !options.resuming) && (typeof orders === 'string' || !isIterable(orders))) problems.push(`orders must be an iterable or async iterable of orders, not ${describe(orders)}`);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && (concurrency as number) >= 1)) problems.push(`concurrency must be a whole number of at least 1, not ${describe(concurrency)}`);
  if (maxResends !== undefined && !(Number.isInteger(maxResends) && (maxResends as number) >= 0)) problems.push(`maxResends must be a whole number of at least 0, not ${describe(maxResends)}`);
  if (total !== undefined && !(Number.isInteger(total) && (total as number) >= 0)) problems.push(`total must be a whole number of at least 0, not ${describe(total)}`);
  if (keepOutcomes !== undefined && typeof keepOutcomes !== 'boolean') problems.push(`keepOutcomes must be true or false, not ${describe(keepOutcomes)}`);
  problems.push(...durationProblems([['timeoutMs', timeoutMs, 1], ['sendMarginMs', sendMarginMs, 0]]));
  if (ledger !== undefined) problems.push(...ledgerProblems({ ledger, batch, leaseMs, pollMs, journal, timeoutMs, sendMarginMs, ledgerOutageMs, batchWaitMs: settings.batchWaitMs }, options));
  else if ((journal !== undefined || options.resuming) && (typeof journal !== 'string' || journal === '')) {
    problems.push(`journal must be ${options.resuming ? "the interrupted batch's journal file" : 'a file path'}, not ${describe(journal)}`);
  }
  for (const name of ['onProgress', 'onOutcome', 'reconcile', 'onStage', 'journalFile'] as const) {
    if (settings[name] !== undefined && typeof settings[name] !== 'function') problems.push(`${name} must be a function, not ${describe(settings[name])}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) problems.push(`signal must be an AbortSignal, not ${describe(signal)}`);
  if (problems.length > 0) throw new BatchSettingsError(problems);
}

/** The problems of settings that are durations: each given one must be a whole number of ms of at least its least. */
function durationProblems(durations: readonly (readonly [name: string, value: unknown, least: number])[]): string[] {
  return durations
    .filter(([, value, least]) => value !== undefined && !(Number.isInteger(value) && (value as number) >= least))
    .map(([name, value, least]) => `${name} must be a whole number of milliseconds of at least ${least}, not ${describe(value)}`);
}

/** The problems of a PostgreSQL ledger's settings. */
function ledgerProblems(settings: Record<string, unknown>, options: { resuming: boolean }): string[] {
  const problems: string[] = [];
  const { ledger, batch, leaseMs, pollMs, journal, timeoutMs, sendMarginMs, ledgerOutageMs, batchWaitMs } = settings;
  const url = typeof ledger === 'string' && /^postgres(ql)?:\/\//.test(ledger);
  const pool = ledger !== null && typeof ledger === 'object' && typeof (ledger as { query?: unknown }).query === 'function';
  if (!url && !pool) problems.push(`ledger must be a postgres:// URL or a pg Pool, not ${describe(typeof ledger === 'string' ? maskedLedgerUrl(ledger) : ledger)}`);
  if (journal !== undefined) problems.push('journal and ledger cannot both be given: a batch is kept in one of them');
  if ((batch !== undefined || options.resuming) && (typeof batch !== 'string' || batch === '' || batch.length > 200)) problems.push(`batch must be ${options.resuming ? "the batch's id in the ledger" : 'a batch id of 1 to 200 characters'}, not ${describe(batch)}`);
  problems.push(...durationProblems([['leaseMs', leaseMs, 10], ['pollMs', pollMs, 1], ['ledgerOutageMs', ledgerOutageMs, 0], ['batchWaitMs', batchWaitMs, 0]]));
  problems.push(...leaseProblems(leaseMs, timeoutMs, sendMarginMs));
  return problems;
}

/**
 * A lease must outlast a request and its margin: a worker sends only with `sendMarginMs` of lease left, and its request
 * may be in flight `timeoutMs` after that; a lease ending sooner would let another worker take the chunk over while
 * the send may still take effect (it waits it out, but renewals stop mattering and every slow answer becomes a takeover).
 */
function leaseProblems(leaseMs: unknown, timeoutMs: unknown, sendMarginMs: unknown): string[] {
  const lease = leaseMs ?? BATCH_DEFAULTS.leaseMs;
  const timeout = timeoutMs ?? BATCH_DEFAULTS.timeoutMs;
  const margin = sendMarginMs ?? BATCH_DEFAULTS.sendMarginMs;
  if (![lease, timeout, margin].every((v) => Number.isInteger(v))) return [];
  const least = (timeout as number) + (margin as number);
  if ((lease as number) > least) return [];
  return [`leaseMs (${String(lease)}${leaseMs === undefined ? ', the default' : ''}) must be longer than timeoutMs (${String(timeout)}${timeoutMs === undefined ? ', the default' : ''}) + sendMarginMs (${String(margin)}${sendMarginMs === undefined ? ', the default' : ''}) = ${least}: a chunk is sent only with sendMarginMs of its lease left and its request may run timeoutMs after that; raise leaseMs or lower timeoutMs`];
}
