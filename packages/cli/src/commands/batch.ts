import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Command } from 'commander';
import {
  BATCH_OPERATIONS,
  BATCH_SETTINGS,
  maskedLedgerUrl,
  newBatchId,
  OrderSourceError,
  ordersFromCsv,
  ordersFromJsonl,
  outcomesFromJournal,
  outcomesFromLedger,
  resumeBatch,
  runBatch,
  runBatchWorker,
  writeResultsCsv,
  type BatchOperation,
  type BatchProgress,
  type BatchResult,
  type LedgerBatchResult,
  type NumericSetting,
  type OrderOutcome,
} from '@gw/batch';
import { sandboxReconciler } from '@gw/sandbox/client';
import { GW_ERROR_CODES, GwError, isGwError } from '@gw/types';
import { EXIT_CODES } from '../exit-codes.ts';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import type { CliIo } from '../io.ts';
import { paint, say, warn } from '../output.ts';
import { progressReporterFor, summaryTable } from './batch-progress.ts';
import { batchCommand, printed, type PrintedCommand } from './batch-resume-command.ts';
import type { CommandContext } from './command-context.ts';

const OPERATIONS: readonly BatchOperation[] = BATCH_OPERATIONS;

/**
 * Where the results CSV goes: `--results`, else `<orders>.<operation>.results.csv`. The default never replaces a file
 * another batch wrote: it is refused before anything is sent unless this run resumes that batch.
 */
export function resultsFileFor(io: CliIo, ordersFile: string, operation: string, flags: { results?: string; resume?: boolean }): string {
  if (flags.results) return flags.results;
  const chosen = `${ordersFile.replace(/\.(csv|jsonl)$/, '')}.${operation}.results.csv`;
  if (!flags.resume && existsSync(isAbsolute(chosen) ? chosen : join(io.cwd, chosen))) {
    throw new GwError(
      GW_ERROR_CODES.config,
      `results file ${chosen} exists (an earlier ${operation} batch wrote it): pass --results <file> to choose another, or move it away; nothing was sent`,
      { results: chosen },
    );
  }
  return chosen;
}

/** The flags of `gw batch` (the gateway's, and the batch's own). */
export type BatchFlags = GatewayFlags & {
  readonly journal?: string;
  readonly ledger?: string;
  readonly ledgerListenUrl?: string;
  readonly batch?: string;
  readonly resume?: boolean;
  readonly results?: string;
  readonly reconcile: string;
} & Readonly<Partial<Record<NumericSetting['name'], string>>>;

/** The batch's numeric settings gw batch takes as flags of its own (`--timeout-ms` and `--concurrency` are the gateway's). */
const BATCH_FLAGS = BATCH_SETTINGS.filter((s) => s.name !== 'timeoutMs');

/** A flag's help: what it does, its default, and where it applies, from the batch's one table of settings. */
function flagHelp(setting: NumericSetting): string {
  const where = setting.scope === 'ledger' ? 'with --ledger: ' : setting.scope === 'worker' ? 'gw batch worker: ' : '';
  const env = setting.name === 'concurrency' ? ' (GW_CONCURRENCY)' : '';
  return `${where}${setting.doc}${env}; default ${setting.default}`;
}

/** `gw batch <operation> orders.csv (--journal FILE | --ledger URL) [--resume] [--results FILE]`, and `gw batch worker`. */
export function registerBatch(program: Command, { io, withGatewayOptions, signals, run }: CommandContext): void {
  const command = withGatewayOptions(
    program
      .command('batch')
      .description(
        'run capture, cancel, refund, review or query over a CSV or JSONL file of orders; every batch is kept in a crash-safe journal (--journal FILE) or a PostgreSQL ledger shared by workers (--ledger URL): one of the two is required',
      )
      .argument('<operation>', `${OPERATIONS.join(' | ')} | worker (joins a batch kept in --ledger)`)
      .argument('[orders]', 'a CSV file with a header row, or a .jsonl file: streamed, never loaded whole')
      .option('--journal <file>', 'required unless --ledger: the journal (append-only JSONL) on this machine; reuse it with --resume after a crash or Ctrl-C')
      .option(
        '--ledger <url>',
        'required unless --journal: a PostgreSQL ledger (postgres://…; GW_LEDGER_URL); several workers on any machine run the batch together, and an order already in another batch there is not sent again',
      )
      .option(
        '--ledger-listen-url <url>',
        'with --ledger: the same database reached directly (postgres://…; GW_LEDGER_LISTEN_URL), for wake-ups when --ledger goes through a transaction pooler such as PgBouncer, which delivers no notification (workers then poll)',
      )
      .option('--batch <id>', 'with --ledger: the batch id (default: a new one, printed); with --resume or worker: the batch to finish or join'),
  );
  for (const setting of BATCH_FLAGS) command.option(`${setting.flag} <${setting.unit === 'ms' ? 'ms' : 'n'}>`, flagHelp(setting));
  command
    .option(
      '--resume',
      'finish the batch recorded in --journal, or --batch in --ledger from any machine, with the orders file it started with (any other is refused, exit 2)',
    )
    .option('--results <file>', "where to write the per-order results CSV (default: <orders>.<operation>.results.csv, never replacing another batch's results)")
    .option(
      '--reconcile <mode>',
      "how a query after an unanswered request is read: 'cannot-tell' (default: report unknown) or 'sandbox' (the sandbox's codes)",
      'cannot-tell',
    )
    .action(async (operation: string, ordersFile: string | undefined, flags: BatchFlags, self: Command) => {
      if (operation !== 'worker' && !OPERATIONS.includes(operation as BatchOperation))
        throw new GwError(GW_ERROR_CODES.config, `unknown batch operation ${operation}; use one of ${OPERATIONS.join(', ')}, or worker`, {});
      if (!['cannot-tell', 'sandbox'].includes(flags.reconcile)) throw new GwError(GW_ERROR_CODES.config, `--reconcile must be cannot-tell or sandbox`, {});
      const ledger = flags.ledger ?? io.env.GW_LEDGER_URL;
      const ledgerListenUrl = flags.ledgerListenUrl ?? io.env.GW_LEDGER_LISTEN_URL;
      if (ledgerListenUrl !== undefined && !ledger)
        throw new GwError(GW_ERROR_CODES.config, '--ledger-listen-url applies to a batch kept in a ledger (--ledger)', {});
      flags = { ...flags, ...(ledgerListenUrl === undefined ? {} : { ledgerListenUrl }) };
      if (operation === 'worker') return workerAction(io, self, { ...flags, ledger }, signals, run);
      if (!ordersFile) throw new GwError(GW_ERROR_CODES.config, `gw batch ${operation} needs the orders file`, {});
      if (!flags.journal && !ledger)
        throw new GwError(GW_ERROR_CODES.config, 'give --journal <file> (this machine) or --ledger <postgres://…> (shared by workers)', {});
      return batchAction(io, self, operation as BatchOperation, ordersFile, { ...flags, ledger }, signals, run);
    });
}

/**
 * Ctrl-C stops cleanly: no new request starts, the ones in flight finish and are recorded, and the command that resumes
 * the batch is printed. The progress stops first (a bar would redraw over what follows).
 */
function stopOnSigint(io: CliIo, signals: NodeJS.EventEmitter, progress: { stop(): void }): AbortSignal {
  const stop = new AbortController();
  signals.once('SIGINT', () => {
    stop.abort();
    progress.stop();
    warn(io, paint(io, 'yellow', 'stopping: waiting for the requests in flight; then the command that resumes the batch is printed', io.stderr));
  });
  return stop.signal;
}

/** The settings every `gw batch` run shares: the client, the gateway's timing, the table's flags, progress and Ctrl-C. */
export async function batchSettings(io: CliIo, flags: BatchFlags, stop: AbortSignal, progress: (p: BatchProgress) => void) {
  const config = gatewayConfig(io, flags);
  const client = await clientFor(io, config);
  const numbers = Object.fromEntries(
    BATCH_FLAGS.filter((s) => s.name !== 'concurrency' && flags[s.name] !== undefined).map((s) => [s.name, Number(flags[s.name])]),
  );
  return {
    client,
    keepOutcomes: false,
    signal: stop,
    onProgress: progress,
    ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...numbers,
    ...(flags.reconcile === 'sandbox' ? { reconcile: sandboxReconciler } : {}),
  };
}

/**
 * A stop the batch can be resumed from (Ctrl-C, a full disk, the ledger out of reach, a lock taken, a malformed line
 * part way), with the exact command that resumes it appended; anything else as it is.
 */
export function withResumeCommand(error: unknown, command: PrintedCommand, started: boolean): unknown {
  if (error instanceof OrderSourceError) {
    const { file, line: number, problem } = error.details;
    const line = number === null ? 'the file' : `line ${number}`;
    const next = started
      ? `Correct ${line}, then resume the batch (orders already taken in are not sent again):\n${printed(command)}`
      : `Nothing was sent. Correct ${line} and run the same command again.`;
    return new GwError(error.code, `${file}${number === null ? '' : `, line ${number}`}: ${problem}. ${next}`, error.details);
  }
  if (!isGwError(error) || error.code !== GW_ERROR_CODES.interrupted) return error;
  return new GwError(error.code, `${error.message}\nResume it with:\n${printed(command)}`, error.details as Record<string, unknown>);
}

async function workerAction(io: CliIo, self: Command, flags: BatchFlags, signals: NodeJS.EventEmitter, run: { exitCode: number }): Promise<void> {
  const progress = progressReporterFor(io);
  let result: LedgerBatchResult;
  try {
    result = await runWorkerCommand(io, self, flags, stopOnSigint(io, signals, progress), (p) => progress.update(p));
  } finally {
    progress.stop();
  }
  say(io, '');
  say(io, summaryTable(io, result));
  say(io, `this worker: ${result.worker.chunks} chunk(s), ${result.worker.takenOver} taken over from a worker that stopped`);
  await reportLedgerResult(io, flags, result, flags.results ?? null, run);
}

async function batchAction(
  io: CliIo,
  self: Command,
  operation: BatchOperation,
  ordersFile: string,
  flags: BatchFlags,
  signals: NodeJS.EventEmitter,
  run: { exitCode: number },
): Promise<void> {
  const file = isAbsolute(ordersFile) ? ordersFile : join(io.cwd, ordersFile);
  if (!existsSync(file)) throw new GwError(GW_ERROR_CODES.config, `orders file ${ordersFile} does not exist`, {});
  const journal = flags.journal ? (isAbsolute(flags.journal) ? flags.journal : join(io.cwd, flags.journal)) : null;
  if (journal && !flags.resume && existsSync(journal))
    throw new GwError(GW_ERROR_CODES.config, `journal ${flags.journal} exists: pass --resume to finish that batch, or choose a new journal`, {});
  if (journal && flags.resume && !existsSync(journal))
    throw new GwError(GW_ERROR_CODES.config, `journal ${flags.journal} does not exist: nothing to resume`, {});
  if (flags.ledger && flags.resume && !flags.batch)
    throw new GwError(GW_ERROR_CODES.config, '--resume with --ledger needs --batch <id>: the batch to finish', {});
  const resultsFile = resultsFileFor(io, ordersFile, operation, flags);
  const batch = flags.ledger ? (flags.batch ?? newBatchId()) : undefined;
  const resume = batchCommand(io, self, { operation, ordersFile, ...ledgerParts(flags), ...(batch ? { batch } : {}), resume: true });
  const read = () => (file.endsWith('.jsonl') ? ordersFromJsonl(file, { operation }) : ordersFromCsv(file, { operation }));
  // One streamed pass to count the orders, so progress has a total and an ETA; memory stays flat.
  let total = 0;
  try {
    for await (const _ of read()) total += 1;
  } catch (error) {
    throw withResumeCommand(error, resume, Boolean(flags.resume));
  }
  const progress = progressReporterFor(io);
  const stop = stopOnSigint(io, signals, progress);
  let result: BatchResult;
  try {
    const settings = { ...(await batchSettings(io, flags, stop, (p) => progress.update(p))), operation, total, orders: read() };
    const store = { ...(journal ? { journal } : {}), ...(flags.ledger ? { ...ledgerSettings(io, flags), batch } : {}) };
    if (flags.ledger)
      say(io, `batch ${batch} in ${maskedLedgerUrl(flags.ledger)}: add workers from any machine with  gw batch worker --ledger <url> --batch ${batch}`);
    result = flags.resume ? await resumeBatch({ ...settings, ...store }) : await runBatch({ ...settings, ...store });
  } catch (error) {
    throw withResumeCommand(error, resume, true);
  } finally {
    progress.stop();
  }
  say(io, '');
  say(io, summaryTable(io, result));
  if (flags.ledger) return reportLedgerResult(io, flags, result as LedgerBatchResult, resultsFile, run);
  const outcomes = await outcomesFromJournal(journal!);
  await writeResultsCsv(outcomes, isAbsolute(resultsFile) ? resultsFile : join(io.cwd, resultsFile));
  say(io, `results: ${resultsFile}   journal: ${flags.journal}   ${(result.durationMs / 1000).toFixed(1)} s`);
  reportUnknown(io, outcomes, run);
}

/** The ledger's settings from the flags: its URL, the listen URL when given, and its notices said on stderr. */
function ledgerSettings(io: CliIo, flags: BatchFlags) {
  return {
    ledger: flags.ledger!,
    ...(flags.ledgerListenUrl === undefined ? {} : { ledgerListen: flags.ledgerListenUrl }),
    onNotice: (message: string) => warn(io, paint(io, 'yellow', `gw: ${message}`, io.stderr)),
  };
}

/** The ledger's part of a printed command: its URL and listen URL, when the batch is kept in a ledger. */
function ledgerParts(flags: BatchFlags): { ledger?: string; ledgerListen?: string } {
  return { ...(flags.ledger ? { ledger: flags.ledger } : {}), ...(flags.ledgerListenUrl ? { ledgerListen: flags.ledgerListenUrl } : {}) };
}

/** Says how many orders ended unknown and how to settle the first; sets the exit status of an unfinished batch. */
export function reportUnknown(io: CliIo, outcomes: readonly OrderOutcome[], run: { exitCode: number }): void {
  const unknown = outcomes.filter((o) => o.kind === 'unknown');
  if (unknown.length > 0)
    warn(
      io,
      paint(
        io,
        'magenta',
        `${unknown.length} order(s) have an unknown outcome (the results name how many requests carried each): ${unknown[0]!.reconcile}`,
        io.stderr,
      ),
    );
  if (outcomes.some((o) => o.kind !== 'succeeded')) run.exitCode = EXIT_CODES.batchIncomplete;
}

/** `gw batch worker --ledger URL --batch ID`: one more worker on a batch kept in PostgreSQL. */
export async function runWorkerCommand(
  io: CliIo,
  self: Command,
  flags: BatchFlags,
  stop: AbortSignal,
  progress: (p: BatchProgress) => void,
): Promise<LedgerBatchResult> {
  if (!flags.ledger || !flags.batch)
    throw new GwError(
      GW_ERROR_CODES.config,
      'gw batch worker needs --ledger <postgres://…> (or GW_LEDGER_URL) and --batch <id> (printed by the gw batch … --ledger that started it)',
      {},
    );
  const settings = await batchSettings(io, flags, stop, progress);
  say(io, `worker on batch ${flags.batch} in ${maskedLedgerUrl(flags.ledger)}`);
  try {
    return await runBatchWorker({ ...settings, ...ledgerSettings(io, flags), batch: flags.batch });
  } catch (error) {
    throw withResumeCommand(error, batchCommand(io, self, { operation: 'worker', ...ledgerParts(flags), batch: flags.batch, resume: false }), true);
  }
}

/** Writes the results from the shared ledger (when asked, or for the process that started the batch) and sets the exit code. */
export async function reportLedgerResult(
  io: CliIo,
  flags: BatchFlags,
  result: BatchResult & { batch: string },
  resultsFile: string | null,
  run: { exitCode: number },
): Promise<void> {
  const outcomes = await outcomesFromLedger(flags.ledger!, result.batch);
  if (resultsFile) await writeResultsCsv(outcomes, isAbsolute(resultsFile) ? resultsFile : join(io.cwd, resultsFile));
  say(io, `${resultsFile ? `results: ${resultsFile}   ` : ''}batch: ${result.batch}   ${(result.durationMs / 1000).toFixed(1)} s`);
  reportUnknown(io, outcomes, run);
}
