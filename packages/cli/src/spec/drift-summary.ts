import { redactReport, type DriftEntry, type DriftReport, type ThrottleObservations } from '@gw/proxy';
import type { CliIo } from '../io.ts';
import { paint, say } from '../output.ts';

function line(entry: DriftEntry): string {
  const where = entry.path ? ` ${entry.path}` : '';
  const example = entry.example ? `  e.g. ${entry.example}` : '';
  return `  ${entry.side} ${entry.kind}${where}: ${entry.message} (${entry.count}x, first ${entry.firstSeen})${example}`;
}

/**
 * What the summary says of signatures, from the same entries as its lines: `not checked` without a verifier,
 * `verified` only when no answer's signature failed, else how many failed and where.
 */
export function signatureVerdict(report: DriftReport): string {
  if (!report.signaturesChecked) return 'signatures not checked';
  const failures = report.drift.filter((entry) => entry.kind === 'signature');
  if (failures.length === 0) return 'signatures verified';
  const answers = failures.reduce((sum, entry) => sum + entry.count, 0);
  return `signatures checked: ${answers} answer(s) of ${failures.map((entry) => entry.operation).join(', ')} did not verify`;
}

/** Each operation the gateway throttled, with what it showed (UNKNOWNS U50); a report from before throttles had none. */
export function throttledOperations(report: DriftReport): [string, ThrottleObservations][] {
  return Object.entries(report.observations).flatMap(([operation, seen]) => (seen.throttles ? [[operation, seen.throttles] as [string, ThrottleObservations]] : []));
}

const seconds = (ms: number): string => `${ms / 1000} s`;
const counts = (values: Record<string, number>, show: (key: string) => string = (key) => key): string =>
  Object.entries(values)
    .map(([key, n]) => `${show(key)} x${n}`)
    .join(', ');
const range = ({ min, max }: { min: number; max: number }): string => (min === max ? String(min) : `${min}-${max}`);

/** The throttling section: per operation, how often, the waits asked for, and the pace the traffic ran at when throttled. */
function printThrottles(io: CliIo, throttled: [string, ThrottleObservations][]): void {
  say(io, paint(io, 'bold', "throttled (UNKNOWNS U50; not drift: the gateway's limits as this traffic met them)"));
  for (const [operation, t] of throttled) {
    say(io, paint(io, 'yellow', `${operation}: ${t.count} throttle(s) (${counts(t.statuses, (status) => `HTTP ${status}`)}), first ${t.firstSeen}, last ${t.lastSeen}`));
    const wait = t.retryAfterMs;
    const without = [wait.absent > 0 ? `${wait.absent} without one` : '', wait.unreadable > 0 ? `${wait.unreadable} unreadable` : ''].filter(Boolean).join(', ');
    const waits = wait.count > 0 ? `${seconds(wait.min!)}${wait.max === wait.min ? '' : ` to ${seconds(wait.max!)}`} (${counts(wait.values, (ms) => (ms === '(other values)' ? ms : seconds(Number(ms))))})` : 'none readable';
    say(io, `  Retry-After: ${waits}${without ? `; ${without}` : ''}`);
    const pace = t.requestsInSecondBefore;
    say(io, `  when throttled: ${range(pace.operation)} request(s) of ${operation} in the second before, ${range(pace.all)} of all /v1`);
  }
}

/** The readable summary (card data redacted, whatever the file held): per operation, each drift with its kind, path, count, first time seen and redacted example; then throttles. */
export function printDriftSummary(io: CliIo, read: DriftReport): void {
  const report = redactReport(read);
  say(io, `${report.exchanges} exchange(s) with ${report.upstream} since ${report.startedAt}; ${report.unchecked} too large to check; ${signatureVerdict(report)}`);
  const byOperation = new Map<string, DriftEntry[]>();
  for (const entry of report.drift) byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), entry]);
  const throttled = throttledOperations(report);
  const throttles = throttled.reduce((sum, [, t]) => sum + t.count, 0);
  if (byOperation.size === 0) say(io, paint(io, 'green', `no drift: every exchange matched the spec${throttles > 0 ? `, apart from ${throttles} throttle(s), which are not drift (below)` : ''}`));
  for (const [operation, entries] of byOperation) {
    say(io, paint(io, 'yellow', `${operation}: ${entries.length} kind(s) of drift`));
    for (const entry of entries) say(io, line(entry));
  }
  for (const [operation, seen] of Object.entries(report.observations)) {
    for (const [path, place] of Object.entries(seen.values)) say(io, `  seen ${operation} ${path} (${place.unknowns}): ${Object.entries(place.counts).map(([v, n]) => `${v} x${n}`).join(', ')}`);
  }
  if (throttled.length > 0) printThrottles(io, throttled);
}

/** The report as `--json` prints it (for CI): drift, observations, and the throttles per operation (UNKNOWNS U50). */
export function driftJson(read: DriftReport): string {
  const report = redactReport(read);
  const throttles = Object.fromEntries(throttledOperations(report));
  return `${JSON.stringify({ exchanges: report.exchanges, drift: report.drift, throttles, observations: report.observations }, null, 2)}\n`;
}

/** The summary as table rows: the exchanges, then each drift (operation, side, kind, path) with count and example. */
export function driftRows(read: DriftReport): [string, string][] {
  const report = redactReport(read);
  const rows: [string, string][] = [['exchanges checked', `${report.exchanges} (${signatureVerdict(report)})`]];
  for (const entry of report.drift) {
    rows.push([`${entry.operation} ${entry.side} ${entry.kind}${entry.path ? ` ${entry.path}` : ''}`, `${entry.count}x${entry.example ? `, e.g. ${entry.example}` : ''}`]);
  }
  rows.push(['kinds of drift', String(report.drift.length)]);
  return rows;
}
