import type { DriftEntry, DriftReport } from '@gw/proxy';
import type { CliIo } from '../io.ts';
import { paint, say } from '../output.ts';

function line(entry: DriftEntry): string {
  const where = entry.path ? ` ${entry.path}` : '';
  const example = entry.example ? `  e.g. ${entry.example}` : '';
  return `  ${entry.side} ${entry.kind}${where}: ${entry.message} (${entry.count}x, first ${entry.firstSeen})${example}`;
}

/** The readable summary: per operation, each drift with its kind, path, count, first time seen and redacted example. */
export function printDriftSummary(io: CliIo, report: DriftReport): void {
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

/** The report as `--json` prints it (for CI). */
export function driftJson(report: DriftReport): string {
  return `${JSON.stringify({ exchanges: report.exchanges, drift: report.drift, observations: report.observations }, null, 2)}\n`;
}

/** The summary as table rows: the exchanges, then each drift (operation, side, kind, path) with count and example. */
export function driftRows(report: DriftReport): [string, string][] {
  const rows: [string, string][] = [['exchanges checked', `${report.exchanges} (signatures ${report.signaturesChecked ? 'verified' : 'not checked'})`]];
  for (const entry of report.drift) {
    rows.push([`${entry.operation} ${entry.side} ${entry.kind}${entry.path ? ` ${entry.path}` : ''}`, `${entry.count}x${entry.example ? `, e.g. ${entry.example}` : ''}`]);
  }
  rows.push(['kinds of drift', String(report.drift.length)]);
  return rows;
}
