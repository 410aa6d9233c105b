// Lists the failed tests of a vitest JSON report in a few lines each, so the end of a CI log (often all a reader gets)
// names what failed and why, not only how many.
import { existsSync, readFileSync } from 'node:fs';

interface VitestReport {
  readonly testResults?: readonly {
    readonly name: string;
    readonly status?: string;
    readonly message?: string;
    readonly assertionResults?: readonly { readonly fullName: string; readonly status: string; readonly failureMessages?: readonly string[] }[];
  }[];
}

/** Lines naming each failed test (or failed file) in the report at `path`, with the first lines of its failure. */
export function failedTests(path: string, label: string): string[] {
  if (!existsSync(path)) return [`${label}: no report written (the run did not finish)`];
  const report = JSON.parse(readFileSync(path, 'utf8')) as VitestReport;
  const lines: string[] = [];
  for (const file of report.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') lines.push(`${label}: ${file.name}: ${firstLines(file.message ?? 'failed')}`);
    for (const test of failed) lines.push(`${label}: ${test.fullName}: ${firstLines(test.failureMessages?.[0] ?? 'failed')}`);
  }
  return lines;
}

/** The message's first line and where in the project's code it was thrown (the first frame outside node_modules). */
function firstLines(message: string): string {
  const lines = message.split('\n');
  const where = lines.find((line) => /^\s*at /.test(line) && !line.includes('node_modules'));
  return [lines[0], where?.trim()].filter(Boolean).join(' ').slice(0, 600);
}
