// Runs test tasks two at a time through scripts/test-queue.ts (longest chains first, going on past a failing package),
// then prints the timeline and the summary, so the last lines of the log always name the counts and every failed test.
// The packages are built first (cache hits after `turbo run typecheck build`): some tests use the built dist folders.
// Node 22 is installed first, so the packages' Node 22 runs do not race to install it.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNode22, root } from './node22.ts';
import { runQueue, type TaskResult } from './test-queue.ts';
import { testTasks, type TestTask } from './test-tasks.ts';
import { vitestReports } from './vitest-reports.ts';

/** Builds, runs the chosen test tasks two at a time, then the summary; exits non-zero if a task or the summary failed. */
export async function runTestTasks(runs: { node24: boolean; node22: boolean }): Promise<never> {
  ensureNode22();
  const build = spawnSync('turbo', ['run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const tasks = testTasks(root, runs);
  removeOldReports(tasks);
  const results = await runQueue(tasks, 2);
  printTimeline(results);
  const summary = spawnSync(process.execPath, [join(root, 'scripts/test-summary.ts')], { cwd: root, stdio: 'inherit' });
  process.exit(results.some((result) => result.code !== 0) ? 1 : (summary.status ?? 1));
}

/** The vitest reports a previous run left in the tasks' packages: the summary must count only this run's. */
function removeOldReports(tasks: readonly TestTask[]): void {
  for (const dir of new Set(tasks.map((task) => task.dir))) {
    if (!existsSync(dir)) continue;
    for (const { file } of vitestReports(dir)) rmSync(join(dir, file));
  }
}

/** One line per task: when it started and ended (seconds since the queue started) and how long it took. */
function printTimeline(results: readonly TaskResult[]): void {
  const rows = [...results].sort((a, b) => a.start - b.start);
  const width = Math.max(...rows.map((row) => row.id.length));
  console.log('test timeline (s since the queue started: start, end, took):');
  for (const row of rows) {
    console.log(
      `  ${row.id.padEnd(width)} ${String(row.start).padStart(6)} ${String(row.end).padStart(6)} ${(row.end - row.start).toFixed(1).padStart(6)}${row.code === 0 ? '' : '  FAILED'}`,
    );
  }
}
