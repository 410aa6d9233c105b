import { isAbsolute, join } from 'node:path';
import { LedgerUnavailableError, maskedLedgerUrl, newBatchId, outcomesFromLedger, resumeBatch, runBatch, runBatchWorker, writeResultsCsv, type BatchClient, type BatchOperation, type BatchProgress, type BatchResult, type LedgerBatchResult } from '@gw/batch';
import { sandboxReconciler } from '@gw/sandbox/client';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { EXIT_CODES } from '../exit-codes.ts';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import type { CliIo } from '../io.ts';
import { paint, say, warn } from '../output.ts';

/** The flags of `gw batch … --ledger` and `gw batch worker`. */
export type LedgerFlags = GatewayFlags & { ledger: string; batch?: string; resume?: boolean; results?: string; reconcile: string; leaseMs?: string; sendMarginMs?: string; ledgerOutageMs?: string };

/** The ledger's URL with its password hidden, for messages. */
export const shownLedger = maskedLedgerUrl;

/** The timing flags given, as numbers (the batch checks them, all at once, with the rest of its settings). */
function timingOf(flags: LedgerFlags): { leaseMs?: number; sendMarginMs?: number; ledgerOutageMs?: number } {
  const given = { leaseMs: flags.leaseMs, sendMarginMs: flags.sendMarginMs, ledgerOutageMs: flags.ledgerOutageMs };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined).map(([k, v]) => [k, Number(v)]));
}

/** What every ledger run shares: the client, concurrency, reconciler, lease, progress and Ctrl-C. */
async function ledgerSettings(io: CliIo, flags: LedgerFlags, stop: AbortSignal, progress: (p: BatchProgress) => void) {
  const config = gatewayConfig(io, flags);
  const client = (await clientFor(io, config)) as unknown as BatchClient;
  return { client, ledger: flags.ledger, keepOutcomes: false, signal: stop, onProgress: progress, ...batchTiming(config), ...timingOf(flags), ...(flags.reconcile === 'sandbox' ? { reconcile: sandboxReconciler } : {}) };
}

/** The batch settings a gateway configuration gives: concurrency and the request timeout, when set. */
export function batchTiming(config: { concurrency?: number; timeoutMs?: number }): { concurrency?: number; timeoutMs?: number } {
  return { ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }), ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }) };
}

/** A ledger out of reach past the outage budget, with the exact command that resumes the batch once it is back. */
function withResumeCommand(error: unknown, command: string): unknown {
  if (!(error instanceof LedgerUnavailableError)) return error;
  return new GwError(error.code, `${error.message}\nResume it with:  ${command}`, error.details);
}

/** `gw batch <operation> <orders> --ledger URL [--batch ID] [--resume]`: the batch kept in PostgreSQL. */
export async function runLedgerCommand(io: CliIo, operation: BatchOperation, ordersFile: string, orders: () => AsyncIterable<Record<string, string>>, total: number, flags: LedgerFlags, stop: AbortSignal, progress: (p: BatchProgress) => void): Promise<LedgerBatchResult> {
  if (flags.resume && !flags.batch) throw new GwError(GW_ERROR_CODES.config, '--resume with --ledger needs --batch <id>: the batch to finish', {});
  const settings = await ledgerSettings(io, flags, stop, progress);
  const batch = flags.batch ?? newBatchId();
  say(io, `batch ${batch} in ${shownLedger(flags.ledger)}: add workers from any machine with  gw batch worker --ledger <url> --batch ${batch}`);
  const resume = `gw batch ${operation} ${ordersFile} --ledger ${shownLedger(flags.ledger)} --batch ${batch} --resume`;
  try {
    if (flags.resume) return (await resumeBatch({ ...settings, batch, total, orders: orders(), operation })) as LedgerBatchResult;
    return await runBatch({ ...settings, batch, total, orders: orders(), operation });
  } catch (error) {
    throw withResumeCommand(error, resume);
  }
}

/** `gw batch worker --ledger URL --batch ID`: one more worker on a batch kept in PostgreSQL. */
export async function runWorkerCommand(io: CliIo, flags: LedgerFlags, stop: AbortSignal, progress: (p: BatchProgress) => void): Promise<LedgerBatchResult> {
  if (!flags.ledger || !flags.batch) throw new GwError(GW_ERROR_CODES.config, 'gw batch worker needs --ledger <postgres://…> and --batch <id> (printed by the gw batch … --ledger that started it)', {});
  const settings = await ledgerSettings(io, flags, stop, progress);
  say(io, `worker on batch ${flags.batch} in ${shownLedger(flags.ledger)}`);
  try {
    return await runBatchWorker({ ...settings, batch: flags.batch });
  } catch (error) {
    throw withResumeCommand(error, `gw batch worker --ledger ${shownLedger(flags.ledger)} --batch ${flags.batch}`);
  }
}

/** Writes the results from the shared ledger (when asked, or for the process that started the batch) and sets the exit code. */
export async function reportLedgerResult(io: CliIo, flags: LedgerFlags, result: BatchResult & { batch: string }, resultsFile: string | null, run: { exitCode: number }): Promise<void> {
  const outcomes = await outcomesFromLedger(flags.ledger, result.batch);
  if (resultsFile) await writeResultsCsv(outcomes, isAbsolute(resultsFile) ? resultsFile : join(io.cwd, resultsFile));
  say(io, `${resultsFile ? `results: ${resultsFile}   ` : ''}batch: ${result.batch}   ${(result.durationMs / 1000).toFixed(1)} s`);
  const unknown = outcomes.filter((o) => o.kind === 'unknown');
  if (unknown.length > 0) warn(io, paint(io, 'magenta', `${unknown.length} order(s) have an unknown outcome: ${unknown[0]!.reconcile}`, io.stderr));
  if (outcomes.some((o) => o.kind !== 'succeeded')) run.exitCode = EXIT_CODES.batchIncomplete;
}
