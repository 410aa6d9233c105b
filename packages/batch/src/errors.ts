import { GW_ERROR_CODES, GwError, isCardDataField } from '@gw/types';
import type { OrderColumnProblems, OrderColumnsDetails, OrderColumnsPlace, UnknownOrderColumn } from './intake/order-columns.ts';
import type { JournalLockHolder } from './journal/lock-holder.ts';

// Every error @gw/batch throws to its caller: one class per concept, each a GwError (a stable `code`, a message a
// person can act on, structured `details`). Card data never reaches a message or details.

/** The settings of a batch cannot run it: every problem found, before any file is opened or request sent. */
export class BatchSettingsError extends GwError<{ problems: readonly string[] }> {
  override readonly name = 'BatchSettingsError';

  constructor(problems: readonly string[]) {
    super(GW_ERROR_CODES.config, `batch settings: ${problems.length} problem(s): ${problems.join('; ')}`, { problems: [...problems] });
  }
}

/** The batch was stopped through its signal after the requests in flight finished and were recorded (journal or ledger). */
export class BatchInterruptedError extends GwError<{ settled: number; journal: string | null; batch: string | null }> {
  override readonly name = 'BatchInterruptedError';

  constructor(settled: number, journal: string | null);
  constructor(settled: number, journal: string | null, batch: string | null);
  constructor(settled: number, journal: string | null, batch: string | null = null) {
    const how = journal
      ? `finish it with resumeBatch (gw batch ... --resume) and the journal ${journal}`
      : batch
        ? `finish it from any machine with resumeBatch and the ledger's batch ${batch} (gw batch ... --ledger URL --batch ${batch} --resume), or add workers to it (gw batch worker)`
        : 'kept in memory only (no journal or ledger), it cannot be resumed: query its orders before sending any again';
    super(GW_ERROR_CODES.interrupted, `batch stopped after ${settled} orders were settled; nothing is in flight; ${how}`, { settled, journal, batch });
  }
}

/** Where a journal is damaged: its path, the 1-based line, the byte offset the line starts at, and what is wrong. */
export interface JournalDamagedDetails {
  readonly journal: string;
  readonly line: number;
  readonly byte: number;
  readonly problem: string;
}

/**
 * A journal line before the last one is not a journal entry (a torn last line, left by a crash or a full disk, is
 * not damage: resume cuts it). Nothing after it can be trusted, so the batch is not resumed from it.
 */
export class JournalDamagedError extends GwError<JournalDamagedDetails> {
  override readonly name = 'JournalDamagedError';

  constructor(details: JournalDamagedDetails) {
    super(
      GW_ERROR_CODES.decode,
      `${details.journal}: line ${details.line} (from byte ${details.byte}) ${details.problem}, and lines follow it, so the journal is damaged ` +
        'and cannot be resumed. Restore it from a backup and resume again; without one, settle the orders it names by query ' +
        '(gw batch query) before sending any of them again, and start a new batch with a new journal',
      details,
    );
  }
}

/** What `JournalInUseError` found: the journal's path and how many bytes it already holds. */
export interface JournalInUseDetails {
  readonly journal: string;
  readonly bytes: number;
}

/**
 * `runBatch` was given a journal that already holds a batch. Appending a second batch to it would send again every
 * order the first one sent, so nothing is sent: finish that batch with `resumeBatch`, or give a new path.
 */
export class JournalInUseError extends GwError<JournalInUseDetails> {
  override readonly name = 'JournalInUseError';

  constructor(journal: string, bytes: number) {
    super(
      GW_ERROR_CODES.config,
      `${journal}: the journal already holds a batch (${bytes} bytes), so runBatch sent nothing; finish that batch with ` +
        'resumeBatch (gw batch ... --resume) and this journal, or give runBatch a journal path of its own',
      { journal, bytes },
    );
  }
}

/** Why the journal's lock was not taken. */
export type JournalLockRefusal = 'alive' | 'stopped' | 'other-host' | 'other-pid-namespace' | 'unreadable' | 'takeover-in-progress';

/** What `JournalLockedError` found: the journal, its lock file, who holds it (null when the file cannot be read) and why it was not taken over. */
export interface JournalLockedDetails {
  readonly journal: string;
  readonly lockFile: string;
  readonly holder: JournalLockHolder | null;
  readonly reason: JournalLockRefusal;
}

function advice({ lockFile, holder, reason }: JournalLockedDetails): string {
  if (holder === null) {
    return `${lockFile} exists but is not a lock gw can read, so a batch may be using the journal; make sure no gw batch runs on it (ps), then remove ${lockFile}`;
  }
  const who = `${holder.role === 'run' ? 'runBatch (gw batch)' : 'resumeBatch (gw batch --resume)'}, pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt}`;
  switch (reason) {
    case 'stopped':
      return `it is in use by ${who}, which is stopped but alive (SIGSTOP, Ctrl-Z): let it go on (kill -CONT ${holder.pid}) and finish, or end it (kill ${holder.pid}) and resume`;
    case 'other-host':
      return `it is locked by ${who}, which this machine cannot check: if no batch runs there (on ${holder.host}: ps -p ${holder.pid}), remove ${lockFile} and resume`;
    case 'other-pid-namespace':
      return `it is locked by ${who} in another pid namespace (another container), which this process cannot check: if no batch runs there, remove ${lockFile} and resume`;
    case 'takeover-in-progress':
      return `another process is taking over the stale lock of ${who}; run again in a moment, and if this persists (a takeover that crashed) make sure no gw batch runs on the journal, then remove ${lockFile} and ${lockFile}.takeover-*`;
    default:
      return `it is in use by ${who}: wait for it to end (ps -p ${holder.pid}), then resume if its batch is not finished`;
  }
}

/**
 * The journal is locked by another run or resume (`<journal>.lock`), which may be sending its orders right now: a
 * second one would send them again, so nothing was sent. A lock is taken over only when its holder, on this host, is
 * dead; a live or stopped holder, one on another host, or a lock file that cannot be read is never taken over.
 */
export class JournalLockedError extends GwError<JournalLockedDetails> {
  override readonly name = 'JournalLockedError';

  constructor(details: JournalLockedDetails) {
    super(GW_ERROR_CODES.config, `${details.journal}: nothing was sent, because ${advice(details)}`, details);
  }
}

/** The journal does not belong to this input (another operation, or an order that differs from the one journaled). */
export class JournalMismatchError extends GwError<{ journal: string; index: number | null }> {
  override readonly name = 'JournalMismatchError';

  constructor(journal: string, index: number | null, message: string) {
    super(GW_ERROR_CODES.config, `${journal}: ${message}; resume with the same operation and the same input the batch started with`, { journal, index });
  }
}

/** Why the journal could not be written: the path and the system's error code (`ENOSPC`, `EIO`, ...). */
export interface JournalWriteDetails {
  readonly journal: string;
  readonly reason: string;
}

/**
 * The journal could not be written (a full disk, an I/O error). The batch stops once the requests in flight are
 * answered; nothing more is sent, since nothing more could be journaled. What reached the journal is resumable.
 */
export class JournalWriteError extends GwError<JournalWriteDetails> {
  override readonly name = 'JournalWriteError';

  constructor(journal: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' && code ? code : cause instanceof Error ? cause.name : 'unknown';
    const fix = reason === 'ENOSPC' ? 'free space on its disk' : 'fix what stops it being written';
    super(
      GW_ERROR_CODES.interrupted,
      `${journal}: the batch journal could not be written (${reason}), so the batch stopped sending; ${fix}, then finish ` +
        'the batch with resumeBatch (gw batch ... --resume) and the same journal: orders whose outcome was not journaled are settled by query',
      { journal, reason },
      { cause },
    );
  }
}

/** A batch in a PostgreSQL ledger that cannot be started or resumed as asked (it exists, it does not, another operation). */
export class LedgerBatchError extends GwError<{ batch: string; problem: string }> {
  override readonly name = 'LedgerBatchError';

  constructor(batch: string, problem: string) {
    super(GW_ERROR_CODES.config, `batch ${batch} in the ledger: ${problem}`, { batch, problem });
  }
}

/** What a LedgerUnavailableError reports: the batch, for how long the ledger was out of reach, and the last failure. */
export interface LedgerUnavailableDetails {
  readonly batch: string | null;
  readonly unreachableMs: number;
  /** The driver's last error code (`ECONNREFUSED`, `57P01`...) or name. */
  readonly reason: string;
  /** Always `resume`: requests in flight were finished; resume the batch once the database is back. */
  readonly next: 'resume';
}

/**
 * The PostgreSQL ledger stayed out of reach longer than `ledgerOutageMs`: the worker sent nothing new meanwhile, let
 * the requests in flight finish, and stopped. Chunks whose outcomes it could not write are taken over by the resume,
 * which queries them before anything is sent again.
 */
export class LedgerUnavailableError extends GwError<LedgerUnavailableDetails> {
  override readonly name = 'LedgerUnavailableError';

  constructor(details: Omit<LedgerUnavailableDetails, 'next'>, options?: { cause?: unknown }) {
    const what = details.batch ? `batch ${details.batch} stopped` : 'the batch stopped';
    super(
      GW_ERROR_CODES.interrupted,
      `the PostgreSQL ledger could not be reached for ${Math.round(details.unreachableMs / 1000)} s (${details.reason}): ${what}, sending nothing new; the requests in flight were finished. Once the database is back, resume it (resumeBatch with the same ledger and batch, or gw batch … --ledger URL --batch ${details.batch ?? 'ID'} --resume): chunks whose outcomes could not be written are queried before anything is sent again`,
      { ...details, next: 'resume' },
      options,
    );
  }
}

/** Where and why an orders file could not be read: `line` is the file's 1-based line (null: the file as a whole). */
export interface OrderSourceProblem {
  readonly file: string;
  readonly line: number | null;
  readonly problem: string;
}

/**
 * A line of a CSV or JSONL orders file is not an order (bad quoting, wrong column count, invalid UTF-8, not a JSON
 * object of text members, over-long). The message and details name the file and line and never echo the line's
 * content, which may hold data that must not be printed.
 */
export class OrderSourceError extends GwError<OrderSourceProblem> {
  override readonly name = 'OrderSourceError';

  constructor(file: string, line: number | null, problem: string) {
    const where = line === null ? file : `${file}, line ${line}`;
    super(GW_ERROR_CODES.decode, `${where}: ${problem}; fix the file and read it again`, { file, line, problem });
  }
}

/** The database holds ledger tables of a gw version from before the migrations (never released): it is not upgraded. */
export class UnmigratedLedgerError extends GwError<Record<string, never>> {
  override readonly name = 'UnmigratedLedgerError';

  constructor() {
    super(
      GW_ERROR_CODES.config,
      'this database holds gw ledger tables (gw_batch) without gw_ledger_migration: they were made by a gw version from before 1.0, whose ledgers are not upgraded; use a new database (or schema) for the ledger',
      {},
    );
  }
}

/**
 * A chunk's request went to the gateway without its send guard: the transport (a wrapper around the client, a
 * client of another make) dropped the per-call options that check the lease at the write and bound the request's
 * time. Nothing proves the chunk was still this worker's when it left, so the batch stops; its orders are queried
 * by the resume before anything is sent again.
 */
export class SendGuardSkippedError extends GwError<{ chunk: number; problem: string }> {
  override readonly name = 'SendGuardSkippedError';

  constructor(chunk: number, problem: string) {
    super(
      GW_ERROR_CODES.interrupted,
      `chunk ${chunk} was sent, but ${problem}: the batch stopped. Pass the batch a client from createClient (@gw/client), or make the wrapper hand each call its options unchanged, then resume the batch: this chunk's orders are queried before anything is sent again`,
      { chunk, problem },
    );
  }
}

/**
 * The journal's lock file was removed or replaced while this run held it (someone removed it by hand, and another run
 * may have taken the journal): the run checks its lock as each request is written, so it sent nothing more, let the
 * requests in flight finish, and stopped.
 */
export class JournalLockLostError extends GwError<{ journal: string; lockFile: string }> {
  override readonly name = 'JournalLockLostError';

  constructor(journal: string, lockFile: string) {
    super(
      GW_ERROR_CODES.interrupted,
      `${journal}: this run's lock ${lockFile} was removed or replaced while it ran, so another run may hold the journal: this run sent nothing more and stopped once its requests in flight were over. Make sure only one gw batch runs on the journal (ps), then finish it with resumeBatch (gw batch ... --resume)`,
      { journal, lockFile },
    );
  }
}

function described(column: UnknownOrderColumn): string {
  const card = isCardDataField(column.column) ? ' (card data, which a batch order never carries)' : '';
  return `\`${column.column}\`${card}${column.suggestion ? ` (did you mean \`${column.suggestion}\`?)` : ''}`;
}

/**
 * The columns of an orders file (its CSV header row, or the members of its first JSONL record) do not fit the batch
 * operation: unknown columns and a missing identifying column, every problem at once, checked before the first order
 * is read. Names only, never a value; a column that does not look like a name (a data row read as the header) is
 * named by its position.
 */
export class OrderColumnsError extends GwError<OrderColumnsDetails> {
  override readonly name = 'OrderColumnsError';

  constructor(place: OrderColumnsPlace, problems: OrderColumnProblems) {
    const { file, format, line, operation } = place;
    const { missing, known, expected, identifying, ignored } = problems;
    // Not one known column, none close to one: in a CSV most likely an order read as the header row, so its cells are
    // named by position only.
    const dataRow = format === 'csv' && known.length === 0 && problems.unknown.every((column) => column.suggestion === null);
    const unknown = dataRow ? problems.unknown.map((column) => ({ ...column, column: `column ${column.position}` })) : problems.unknown;
    const said: string[] = [];
    if (unknown.length > 0)
      said.push(`${unknown.length === 1 ? 'a column' : 'columns'} that ${operation} orders do not have: ${unknown.map(described).join(', ')}`);
    if (missing.length > 0) said.push(`no column identifies the order: add ${missing.join(' or ')}`);
    if (dataRow && unknown.length > 0) said.push('not one column is known, so the first line may be an order rather than the header row');
    const optional = expected.filter((column) => !identifying.includes(column));
    const columns = `The ${operation} columns are ${identifying.join(' or ')} (identifying each order; one is needed)${optional.length > 0 ? `, then ${optional.join(', ')} (optional)` : ''}${ignored.length > 0 ? `; ${ignored.join(', ')} may be there and are not read` : ''}.`;
    const what = format === 'csv' ? 'the header row does' : 'the members of the first order do';
    super(
      GW_ERROR_CODES.validation,
      `${file}, line ${line}: ${what} not fit a ${operation} batch: ${said.join('; ')}. ${columns} Rename the columns as the spec spells them and read the file again.`,
      { file, format, line, operation, unknown, missing, known, expected, identifying, ignored },
    );
  }
}

/** Where a resume's input first differs from the batch's own: the input index (null: its length), and how. */
export interface InputMismatchDetails {
  /** The batch's record: the journal's path, or `postgres:<batch id>`. */
  readonly store: string;
  /** The first input order that differs (0-based), or null when only the number of orders differs. */
  readonly index: number | null;
  /** The members that differ at `index` (names only, never values), when the store keeps that order. */
  readonly fields: readonly string[];
  /** How many orders the resume's input has (when it was read to its end), and how many the batch's had (when known). */
  readonly count: number | null;
  readonly expected: number | null;
}

/**
 * A resume was given an input that is not the batch's own (another file, the same orders in another order, fewer or
 * more of them): it would send orders the batch never had and lose some it had. Nothing was sent; resume with the
 * input the batch started with. The same error for a journal and a ledger.
 */
export class InputMismatchError extends GwError<InputMismatchDetails> {
  override readonly name = 'InputMismatchError';

  constructor(details: InputMismatchDetails, difference: string) {
    super(
      GW_ERROR_CODES.config,
      `${details.store}: ${difference}. A resume takes the batch's own input (the same orders, in the same order), so nothing was sent; resume with the file the batch was started with`,
      details,
    );
  }
}

/** What stopped a throttled batch: the wait the gateway asked for, how many throttles it met, and the longest wait it takes. */
export interface BatchThrottledDetails {
  readonly retryAfterMs: number | null;
  readonly throttles: number;
  readonly maxThrottleWaitMs: number;
}

/**
 * The gateway throttled the batch for longer than it waits (`maxThrottleWaitMs`): one Retry-After past it, or throttles
 * that let no request through for that long. The batch sent nothing more, let the requests in flight finish, and
 * stopped; resume it later (the throttled orders were not applied, by the client's `throttled` policy, and go out then).
 */
export class BatchThrottledError extends GwError<BatchThrottledDetails> {
  override readonly name = 'BatchThrottledError';

  constructor(details: BatchThrottledDetails) {
    const asked = details.retryAfterMs === null ? 'kept throttling it' : `asked it to wait ${Math.ceil(details.retryAfterMs / 1000)} s`;
    super(
      GW_ERROR_CODES.interrupted,
      `the gateway ${asked} (${details.throttles} throttled request(s)), longer than maxThrottleWaitMs (${details.maxThrottleWaitMs} ms): the batch stopped sending, the requests in flight were finished; resume it once the gateway lets it through (a lower maxRate or maxInFlight keeps it under the gateway's quota)`,
      details,
    );
  }
}

/** What LedgerConnectionError reports: the setting to change, and what the connection met. */
export interface LedgerConnectionDetails {
  /** The setting that decides it: `sslrootcert`, `sslmode`, `pool_mode`, `--ledger-listen-url`, `target_session_attrs`, the password... */
  readonly setting: string;
  readonly problem: string;
}

/**
 * The ledger's database was reached but cannot keep a batch as it is set up: a TLS certificate refused, a server that
 * refuses the connection (TLS required, a password), a pooler that breaks a guarantee (statement pooling), a server
 * that only reads, or a listen URL that does not deliver notifications. Found at start, before anything is sent;
 * waiting does not cure it: change the setting named.
 */
export class LedgerConnectionError extends GwError<LedgerConnectionDetails> {
  override readonly name = 'LedgerConnectionError';

  constructor(details: LedgerConnectionDetails, options?: { cause?: unknown }) {
    super(GW_ERROR_CODES.config, `the PostgreSQL ledger: ${details.problem} (change ${details.setting}); nothing was sent`, { ...details }, options);
  }
}

/** What LedgerNotMigratedError reports: the migration the database is at, the newest, and the command that migrates it. */
export interface LedgerNotMigratedDetails {
  readonly applied: number;
  readonly latest: number;
  readonly command: string;
}

/**
 * The ledger's database is not at the newest migration and the role connecting may not create tables (a worker role
 * without CREATE): its owner migrates it first, with `gw ledger migrate` (`migrateLedger`), which prints the grants
 * the worker role needs. Nothing was sent.
 */
export class LedgerNotMigratedError extends GwError<LedgerNotMigratedDetails> {
  override readonly name = 'LedgerNotMigratedError';

  constructor(details: LedgerNotMigratedDetails, options?: { cause?: unknown }) {
    super(
      GW_ERROR_CODES.config,
      `the PostgreSQL ledger's database is at migration ${details.applied} of ${details.latest} and this role may not create tables: have the database's owner run \`${details.command}\` (migrateLedger in the library), then grant this role what it prints; nothing was sent`,
      { ...details },
      options,
    );
  }
}

// Signals between the batch's own parts, caught inside it and never thrown to its caller (not exported from the
// package): plain Errors, beside the GwErrors above so that every error the package makes is in this one file.

/** Thrown by a send guard: the lease has less than the margin left, so the chunk is not sent (nothing was written). */
export class LeaseLapsedError extends Error {
  override readonly name = 'LeaseLapsedError';
  readonly chunk: number;

  constructor(chunk: number, why: string) {
    super(`the lease on chunk ${chunk} has ${why}: not sent`);
    this.chunk = chunk;
  }
}

/** Thrown by a send guard: the chunk's slot of the batch's rate has passed, so it is not sent (nothing was written). */
export class SlotMissedError extends Error {
  override readonly name = 'SlotMissedError';
  readonly chunk: number;

  constructor(chunk: number, lateMs: number) {
    super(`chunk ${chunk} is ${Math.round(lateMs)} ms past its slot of the batch's rate: not sent, handed back for a new slot`);
    this.chunk = chunk;
  }
}

/** The request waited out a pause and was not let through: it goes back, to be paced anew. */
export class PausedError extends Error {
  override readonly name = 'PausedError';
}

/** The pacer let a request not go (the batch stopped, or is stopping): nothing was written. */
export class NotAdmittedError extends Error {
  override readonly name = 'NotAdmittedError';
}

/**
 * The batch's intake mark is not where this process left it: its intake lock went with a lost connection and another
 * process took the intake over. This process stops taking input in (the other one goes on) and only works.
 */
export class IntakeMovedOnError extends Error {
  override readonly name = 'IntakeMovedOnError';

  constructor(batch: string, at: number, expected: number) {
    super(`batch ${batch}: the intake mark is at ${at}, not ${expected}: another process took the intake over`);
  }
}
