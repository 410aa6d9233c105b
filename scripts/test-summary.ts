// Adds up the vitest JSON reports that each package's `test` script writes and prints one closing line,
// `N passed, N failed`, so a reader of the CI log sees the whole suite's count at the end.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { failedTests } from './failed-tests.ts';
import { vitestReports } from './vitest-reports.ts';

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const rows: string[] = [];
const failures: string[] = [];
for (const group of ['packages', 'tools', 'bench']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    if (!statSync(join(dir, name)).isDirectory()) continue;
    for (const { file, part } of vitestReports(join(dir, name))) {
      const label = part === undefined ? '' : part === 'node22' ? ' (node 22)' : ` (${part})`;
      const report = join(dir, name, file);
      const r = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      skipped += r.numPendingTests + r.numTodoTests;
      rows.push(`  ${group}/${name}${label}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
      if (r.numFailedTests > 0) failures.push(...failedTests(report, `${group}/${name}${label}`));
    }
  }
}
console.log(`test summary:\n${rows.join('\n')}`);
if (failures.length > 0) console.log(`failed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0 || failed > 0) process.exit(1);
