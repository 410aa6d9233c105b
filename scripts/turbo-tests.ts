// Runs test tasks through turbo, two at a time, going on past a failing package, then the summary, so the last lines
// of the log always name the counts and every failed test, whether or not a package failed. Node 22 is installed
// first, so the packages' Node 22 runs do not race to install it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureNode22, root } from './node22.ts';

/** `turbo run <taskArgs> --concurrency=2 --continue`, then the summary; exits with turbo's failure, else the summary's. */
export function runTestTasks(taskArgs: readonly string[]): never {
  ensureNode22();
  const turbo = spawnSync('turbo', ['run', ...taskArgs, '--concurrency=2', '--continue'], { cwd: root, stdio: 'inherit', shell: false });
  const summary = spawnSync(process.execPath, [join(root, 'scripts/test-summary.ts')], { cwd: root, stdio: 'inherit' });
  process.exit(turbo.status !== 0 ? (turbo.status ?? 1) : (summary.status ?? 1));
}
