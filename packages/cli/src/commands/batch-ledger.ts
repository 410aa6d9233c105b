import { isAbsolute, join } from 'node:path';
import { newBatchId, outcomesFromLedger, resumeBatch, runBatch, runBatchWorker, writeResultsCsv, type BatchClient, type BatchOperation, type BatchProgress, type BatchResult, type LedgerBatchResult } from '@gw/batch';
import { sandboxReconciler } from '@gw/sandbox';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { EXIT_CODES } from '../exit-codes.ts';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import type { CliIo } from '../io.ts';
import { paint, say, warn } from '../output.ts';

/** The flags of `gw batch … --ledger` and `gw batch worker`. */
export type LedgerFlags = GatewayFlags & { ledger: string; batch?: string; resume?: boolean; results?: string; reconcile: string; leaseMs?: string };

/** The ledger's URL with its password hidden, for messages. */
export function shownLedger(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

function leaseOf(flags: LedgerFlags): number | undefined {
  if (flags.leaseMs === undefined) return undefined;
  const lease = Number(flags.leaseMs);
  if (!Number.isInteger(lease) || lease < 10) throw new GwError(GW_ERROR_CODES.config, `--lease-ms must be a whole number of milliseconds of at least 10, not ${flags.leaseMs}`, {});
  return lease;
}

/** What every ledger run shares: the client, concurrency, reconciler, lease, progress and Ctrl-C. */
async function ledgerSettings(io: CliIo, flags: LedgerFlags, stop: AbortSignal, progress: (p: BatchProgress) => void) {
  if (!/^postgres(ql)?:\/\//.test(flags.ledger)) throw new GwError(GW_ERROR_CODES.config, `--ledger must be a postgres:// URL, not ${shownLedger(flags.ledger)}`, {});
  const config = gatewayConfig(io, flags);
  const client = (await clientFor(io, config)) as unknown as BatchClient;
  const leaseMs = leaseOf(flags);
  return { client, ledger: flags.ledger, concurrency: config.concurrency ?? 4, keepOutcomes: false, signal: stop, onProgress: progress, ...(leaseMs ? { leaseMs } : {}), ...(flags.reconcile === 'sandbox' ? { reconcile: sandboxReconciler } : {}) };
}

/** `gw batch <operation> <orders> --ledger URL [--batch ID] [--resume]`: the batch kept in PostgreSQL. */
export async function runLedgerCommand(io: CliIo, operation: BatchOperation, orders: () => AsyncIterable<Record<string, string>>, total: number, flags: LedgerFlags, stop: AbortSignal, progress: (p: BatchProgress) => void): Promise<LedgerBatchResult> {
  if (flags.resume && !flags.batch) throw new GwError(GW_ERROR_CODES.config, '--resume with --ledger needs --batch <id>: the batch to finish', {});
  const settings = await ledgerSettings(io, flags, stop, progress);
  const batch = flags.batch ?? newBatchId();
  say(io, `batch ${batch} in ${shownLedger(flags.ledger)}: add workers from any machine with  gw batch worker --ledger <url> --batch ${batch}`);
  if (flags.resume) return (await resumeBatch({ ...settings, batch, total, orders: orders(), operation })) as LedgerBatchResult;
  return runBatch({ ...settings, batch, total, orders: orders(), operation });
}

/** `gw batch worker --ledger URL --batch ID`: one more worker on a batch kept in PostgreSQL. */
export async function runWorkerCommand(io: CliIo, flags: LedgerFlags, stop: AbortSignal, progress: (p: BatchProgress) => void): Promise<LedgerBatchResult> {
  if (!flags.ledger || !flags.batch) throw new GwError(GW_ERROR_CODES.config, 'gw batch worker needs --ledger <postgres://…> and --batch <id> (printed by the gw batch … --ledger that started it)', {});
  const settings = await ledgerSettings(io, flags, stop, progress);
  say(io, `worker on batch ${flags.batch} in ${shownLedger(flags.ledger)}`);
  return runBatchWorker({ ...settings, batch: flags.batch });
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
