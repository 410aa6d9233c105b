import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { BATCH_OPERATIONS, OrderSourceError, ordersFromCsv, ordersFromJsonl, outcomesFromJournal, resumeBatch, runBatch, writeResultsCsv, type BatchClient, type BatchOperation, type BatchProgress, type BatchResult, type LedgerBatchResult } from '@gw/batch';
import { sandboxReconciler } from '@gw/sandbox/client';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { EXIT_CODES } from '../exit-codes.ts';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import type { CliIo } from '../io.ts';
import { colourOn, paint, say, table, warn } from '../output.ts';
import { batchTiming, reportLedgerResult, runLedgerCommand, runWorkerCommand, type LedgerFlags } from './batch-ledger.ts';
import type { CommandContext } from './command-context.ts';

const OPERATIONS: readonly BatchOperation[] = BATCH_OPERATIONS;

function seconds(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '?';
  return value < 90 ? `${Math.round(value)}s` : `${Math.round(value / 60)}m`;
}

function progressLine(p: BatchProgress): string {
  return `progress: ${p.done}${p.total ? `/${p.total}` : ''} orders, ${p.ratePerSecond.toFixed(0)}/s, ETA ${seconds(p.etaSeconds)}, failed ${p.counts.failed + p.counts.rejected}, unknown ${p.counts.unknown}`;
}

/** The default time between two progress lines off a terminal. */
export const PROGRESS_LINE_EVERY_MS = 2000;

/**
 * Progress on a terminal: a live bar; elsewhere (a log, a pipe): a line at the first update, then the latest state
 * every `everyMs` while the batch runs (so a log shows it moving, or waiting), and the last state when it ends.
 */
export function progressReporterFor(io: CliIo, everyMs = PROGRESS_LINE_EVERY_MS): { update(p: BatchProgress): void; stop(): void } {
  if (colourOn(io)) return progressBar(io);
  let latest: BatchProgress | null = null;
  let printed: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  const print = (always: boolean): void => {
    if (!latest) return;
    const line = progressLine(latest);
    if (always || line !== printed) say(io, line);
    printed = line;
  };
  return {
    update(p) {
      latest = p;
      if (timer) return;
      print(true);
      timer = setInterval(() => print(true), everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      print(false);
    },
  };
}

function progressBar(io: CliIo): { update(p: BatchProgress): void; stop(): void } {
  const bar = new SingleBar(
    { format: ' {bar} {value}/{total} orders | {rate}/s | ETA {eta_text} | failed {failed} unknown {unknown}', hideCursor: true, stream: io.stdout as NodeJS.WriteStream, clearOnComplete: false },
  );
  let started = false;
  return {
    update(p) {
      const payload = { rate: p.ratePerSecond.toFixed(0), eta_text: seconds(p.etaSeconds), failed: p.counts.failed + p.counts.rejected, unknown: p.counts.unknown };
      if (!started) {
        bar.start(p.total ?? p.done, p.done, payload);
        started = true;
      }
      if (p.total === null) bar.setTotal(Math.max(p.done, 1));
      bar.update(p.done, payload);
    },
    stop: () => started && bar.stop(),
  };
}

/** The summary table of a finished batch. */
export function summaryTable(io: CliIo, result: BatchResult): string {
  const c = result.counts;
  return table(io, ['outcome', 'orders'], [
    [paint(io, 'green', 'succeeded'), c.succeeded],
    [paint(io, 'red', 'failed'), c.failed],
    [paint(io, 'yellow', 'rejected'), c.rejected],
    [paint(io, 'magenta', 'unknown'), c.unknown],
    ['total', result.total],
  ]);
}

/** A malformed orders file, with what to do next: the line to fix, and whether `--resume` finishes the batch. */
export function withResumeAdvice(error: unknown, journaled: boolean): unknown {
  if (!(error instanceof OrderSourceError)) return error;
  const { file, line: number, problem } = error.details;
  const line = number === null ? 'the file' : `line ${number}`;
  const next = journaled
    ? `Correct ${line}, then run the same command with --resume: orders already in the journal are not sent again.`
    : `Nothing was sent. Correct ${line} and run the same command again.`;
  return new GwError(error.code, `${file}${number === null ? '' : `, line ${number}`}: ${problem}. ${next}`, error.details);
}

/**
 * Where the results CSV goes: `--results`, else `<orders>.<operation>.results.csv`. The default never replaces a file
 * another batch wrote: it is refused before anything is sent unless this run resumes that batch.
 */
export function resultsFileFor(io: CliIo, ordersFile: string, operation: string, flags: { results?: string; resume?: boolean }): string {
  if (flags.results) return flags.results;
  const chosen = `${ordersFile.replace(/\.(csv|jsonl)$/, '')}.${operation}.results.csv`;
  if (!flags.resume && existsSync(isAbsolute(chosen) ? chosen : join(io.cwd, chosen))) {
    throw new GwError(GW_ERROR_CODES.config, `results file ${chosen} exists (an earlier ${operation} batch wrote it): pass --results <file> to choose another, or move it away; nothing was sent`, { results: chosen });
  }
  return chosen;
}

/** `gw batch <operation> orders.csv (--journal FILE | --ledger URL) [--resume] [--results FILE]`, and `gw batch worker`. */
export function registerBatch(program: Command, { io, withGatewayOptions, signals, run }: CommandContext): void {
  withGatewayOptions(
    program
      .command('batch')
      .description('run capture, cancel, refund, review or query over a CSV or JSONL file of orders; every batch is kept in a crash-safe journal (--journal FILE) or a PostgreSQL ledger shared by workers (--ledger URL): one of the two is required')
      .argument('<operation>', `${OPERATIONS.join(' | ')} | worker (joins a batch kept in --ledger)`)
      .argument('[orders]', 'a CSV file with a header row, or a .jsonl file: streamed, never loaded whole')
      .option('--journal <file>', 'required unless --ledger: the journal (append-only JSONL) on this machine; reuse it with --resume after a crash or Ctrl-C')
      .option('--ledger <url>', 'required unless --journal: a PostgreSQL ledger (postgres://…); several workers on any machine run the batch together, and an order already in another batch there is not sent again')
      .option('--concurrency <n>', 'requests in flight (GW_CONCURRENCY)')
      .option('--batch <id>', 'with --ledger: the batch id (default: a new one, printed); with --resume or worker: the batch to finish or join')
      .option('--lease-ms <ms>', 'with --ledger: how long a worker holds a chunk without renewing it (default 60000; longer than --timeout-ms + --send-margin-ms)')
      .option('--send-margin-ms <ms>', 'with --ledger: a chunk is sent only while its lease has this long left; unanswered orders are queried this long after the call ended (default 5000)')
      .option('--ledger-outage-ms <ms>', 'with --ledger: how long a worker rides out an unreachable database, sending nothing new, before it stops for --resume (default 30000)')
      .option('--resume', 'finish the batch recorded in --journal (same operation, same orders file), or --batch in --ledger from any machine')
      .option('--results <file>', 'where to write the per-order results CSV (default: <orders>.<operation>.results.csv, never replacing another batch\'s results)')
      .option('--reconcile <mode>', "how a query after an unanswered request is read: 'cannot-tell' (default: report unknown) or 'sandbox' (the sandbox's codes)", 'cannot-tell'),
  ).action(async (operation: string, ordersFile: string | undefined, flags: GatewayFlags & { journal?: string; ledger?: string; batch?: string; leaseMs?: string; sendMarginMs?: string; ledgerOutageMs?: string; resume?: boolean; results?: string; reconcile: string }) => {
    if (operation !== 'worker' && !OPERATIONS.includes(operation as BatchOperation)) throw new GwError(GW_ERROR_CODES.config, `unknown batch operation ${operation}; use one of ${OPERATIONS.join(', ')}, or worker`, {});
    if (!['cannot-tell', 'sandbox'].includes(flags.reconcile)) throw new GwError(GW_ERROR_CODES.config, `--reconcile must be cannot-tell or sandbox`, {});
    if (flags.journal && flags.ledger) throw new GwError(GW_ERROR_CODES.config, '--journal and --ledger cannot both be given: a batch is kept in one of them', {});
    if (operation === 'worker') return workerAction(io, { ...flags, ledger: flags.ledger ?? '' }, signals, run);
    if (!ordersFile) throw new GwError(GW_ERROR_CODES.config, `gw batch ${operation} needs the orders file`, {});
    if (!flags.journal && !flags.ledger) throw new GwError(GW_ERROR_CODES.config, 'give --journal <file> (this machine) or --ledger <postgres://…> (shared by workers)', {});
    return batchAction(io, operation as BatchOperation, ordersFile, flags, signals, run);
  });
}

/** Ctrl-C stops cleanly: no new request starts, the ones in flight finish and are recorded, --resume does the rest. */
function stopOnSigint(io: CliIo, signals: NodeJS.EventEmitter): AbortSignal {
  const stop = new AbortController();
  signals.once('SIGINT', () => {
    stop.abort();
    warn(io, paint(io, 'yellow', 'stopping: waiting for the requests in flight, then the batch is complete for --resume', io.stderr));
  });
  return stop.signal;
}

async function workerAction(io: CliIo, flags: LedgerFlags, signals: NodeJS.EventEmitter, run: { exitCode: number }): Promise<void> {
  const progress = progressReporterFor(io);
  let result: LedgerBatchResult;
  try {
    result = await runWorkerCommand(io, flags, stopOnSigint(io, signals), (p) => progress.update(p));
  } finally {
    progress.stop();
  }
  say(io, '');
  say(io, summaryTable(io, result));
  say(io, `this worker: ${result.worker.chunks} chunk(s), ${result.worker.takenOver} taken over from a worker that stopped`);
  await reportLedgerResult(io, flags, result, flags.results ?? null, run);
}

async function batchAction(io: CliIo, operation: BatchOperation, ordersFile: string, flags: GatewayFlags & { journal?: string; ledger?: string; batch?: string; leaseMs?: string; sendMarginMs?: string; ledgerOutageMs?: string; resume?: boolean; results?: string; reconcile: string }, signals: NodeJS.EventEmitter, run: { exitCode: number }): Promise<void> {
  const file = isAbsolute(ordersFile) ? ordersFile : join(io.cwd, ordersFile);
  if (!existsSync(file)) throw new GwError(GW_ERROR_CODES.config, `orders file ${ordersFile} does not exist`, {});
  const journal = flags.journal ? (isAbsolute(flags.journal) ? flags.journal : join(io.cwd, flags.journal)) : null;
  if (journal && !flags.resume && existsSync(journal)) throw new GwError(GW_ERROR_CODES.config, `journal ${flags.journal} exists: pass --resume to finish that batch, or choose a new journal`, {});
  if (journal && flags.resume && !existsSync(journal)) throw new GwError(GW_ERROR_CODES.config, `journal ${flags.journal} does not exist: nothing to resume`, {});
  const resultsFile = resultsFileFor(io, ordersFile, operation, flags);
  const read = () => (file.endsWith('.jsonl') ? ordersFromJsonl(file, { operation }) : ordersFromCsv(file, { operation }));
  // One streamed pass to count the orders, so progress has a total and an ETA; memory stays flat.
  let total = 0;
  try {
    for await (const _ of read()) total += 1;
  } catch (error) {
    throw withResumeAdvice(error, journal ? existsSync(journal) : Boolean(flags.resume));
  }
  const progress = progressReporterFor(io);
  const stop = stopOnSigint(io, signals);
  let result: BatchResult;
  try {
    if (flags.ledger) result = await runLedgerCommand(io, operation, ordersFile, read, total, { ...flags, ledger: flags.ledger }, stop, (p) => progress.update(p));
    else {
      const config = gatewayConfig(io, flags);
      const client = (await clientFor(io, config)) as unknown as BatchClient;
      const settings = { client, total, ...batchTiming(config), ...(flags.sendMarginMs === undefined ? {} : { sendMarginMs: Number(flags.sendMarginMs) }), journal: journal!, keepOutcomes: false, signal: stop, onProgress: (p: BatchProgress) => progress.update(p), ...(flags.reconcile === 'sandbox' ? { reconcile: sandboxReconciler } : {}) };
      result = flags.resume ? await resumeBatch({ ...settings, orders: read(), operation }) : await runBatch({ ...settings, orders: read(), operation });
    }
  } catch (error) {
    throw withResumeAdvice(error, true);
  } finally {
    progress.stop();
  }
  say(io, '');
  say(io, summaryTable(io, result));
  if (flags.ledger) return reportLedgerResult(io, { ...flags, ledger: flags.ledger }, result as LedgerBatchResult, resultsFile, run);
  const outcomes = await outcomesFromJournal(journal!);
  await writeResultsCsv(outcomes, isAbsolute(resultsFile) ? resultsFile : join(io.cwd, resultsFile));
  say(io, `results: ${resultsFile}   journal: ${flags.journal}   ${(result.durationMs / 1000).toFixed(1)} s`);
  const unknown = outcomes.filter((o) => o.kind === 'unknown');
  if (unknown.length > 0) warn(io, paint(io, 'magenta', `${unknown.length} order(s) have an unknown outcome: ${unknown[0]!.reconcile}`, io.stderr));
  if (outcomes.some((o) => o.kind !== 'succeeded')) run.exitCode = EXIT_CODES.batchIncomplete;
}
