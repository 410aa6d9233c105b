import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { DriftEntry, DriftReport } from '@gw/proxy';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { EXIT_CODES } from '../exit-codes.ts';
import type { CliIo } from '../io.ts';
import { paint, say } from '../output.ts';

async function readReport(io: CliIo, file: string): Promise<DriftReport> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new GwError(GW_ERROR_CODES.config, `cannot read the report ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { file });
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    throw new GwError(GW_ERROR_CODES.config, `${file} is not JSON: give the file gw proxy --report wrote`, { file });
  }
  if (!report || typeof report !== 'object' || (report as DriftReport).type !== 'gw-drift-report' || !Array.isArray((report as DriftReport).drift)) {
    throw new GwError(GW_ERROR_CODES.config, `${file} is not a gw drift report (type gw-drift-report): give the file gw proxy --report wrote`, { file });
  }
  return report as DriftReport;
}

function line(entry: DriftEntry): string {
  const where = entry.path ? ` ${entry.path}` : '';
  const example = entry.example ? `  e.g. ${entry.example}` : '';
  return `  ${entry.side} ${entry.kind}${where}: ${entry.message} (${entry.count}x, first ${entry.firstSeen})${example}`;
}

/** The readable summary: per operation, each drift with its kind, path, count, first time seen and redacted example. */
function summary(io: CliIo, report: DriftReport): void {
  say(io, `${report.exchanges} exchange(s) with ${report.upstream} since ${report.startedAt}; ${report.unchecked} too large to check; signatures ${report.signaturesChecked ? 'verified' : 'not checked'}`);
  const byOperation = new Map<string, DriftEntry[]>();
  for (const entry of report.drift) byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), entry]);
  if (byOperation.size === 0) say(io, paint(io, 'green', 'no drift: every exchange matched the spec'));
  for (const [operation, entries] of byOperation) {
    say(io, paint(io, 'yellow', `${operation}: ${entries.length} kind(s) of drift`));
    for (const entry of entries) say(io, line(entry));
  }
  for (const [operation, seen] of Object.entries(report.observations)) {
    for (const [path, place] of Object.entries(seen.values)) say(io, `  seen ${operation} ${path} (${place.unknowns}): ${Object.entries(place.counts).map(([v, n]) => `${v} x${n}`).join(', ')}`);
  }
}

/** `gw spec drift REPORT`: what a gw proxy report found; exit status 13 when there is drift. */
export function registerSpec(program: Command, io: CliIo, run: { exitCode: number }): void {
  const spec = program.command('spec').description('check the spec against what the gateway does');
  spec
    .command('drift <report>')
    .description('summarise a gw proxy report per operation (kind, field, count, first seen, redacted example); exits 13 when there is drift')
    .option('--json', 'print the drift entries as JSON (for CI)')
    .action(async (file: string, flags: { json?: boolean }) => {
      const report = await readReport(io, file);
      if (flags.json) io.stdout.write(`${JSON.stringify({ exchanges: report.exchanges, drift: report.drift, observations: report.observations }, null, 2)}\n`);
      else summary(io, report);
      if (report.drift.length > 0) run.exitCode = EXIT_CODES.drift;
    });
}
